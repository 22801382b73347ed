import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { payNowHref, PropertyBottomBar } from './property-bottom-bar';

describe('Pay Now (spec §4)', () => {
  const town = { AllowPaymentLink: true, PaymentLink: 'pay.town.example/?acct=' };
  it('appears only when the town allows it and tax is outstanding', () => {
    expect(payNowHref(town, 10.5, 'A1')).toBe('https://pay.town.example/?acct=A1');
    expect(payNowHref(town, 0, 'A1')).toBeNull();
    expect(payNowHref(town, null, 'A1')).toBeNull();
    expect(payNowHref(town, -5, 'A1')).toBeNull();
    expect(payNowHref({ ...town, AllowPaymentLink: false }, 10.5, 'A1')).toBeNull();
    expect(payNowHref({ ...town, PaymentLink: '' }, 10.5, 'A1')).toBeNull();
  });
});

describe('record bottom bar', () => {
  afterEach(cleanup);
  const paths = ['/Maine/Harrison/1', '/Maine/Harrison/2', '/Maine/Harrison/3'];
  // Record `index` of a page of three, on page 2 of a 103-result search (so numbers run 4..6).
  const renderBar = (index: number | null, payHref: string | null = null, due?: string) =>
    render(
      <MemoryRouter>
        <PropertyBottomBar
          searchHref="/Maine/Harrison/search"
          position={
            index === null
              ? null
              : {
                  number: 3 + index + 1,
                  total: 1_003,
                  previous: index > 0 ? { href: paths[index - 1]! } : null,
                  next: index < 2 ? { href: paths[index + 1]! } : null,
                }
          }
          payHref={payHref}
          due={due}
        />
      </MemoryRouter>,
    );

  it('shows Previous/Next and "n of N" for the whole result set', () => {
    renderBar(1);
    expect(screen.getByRole('link', { name: 'Previous property' }).getAttribute('href')).toBe(
      '/Maine/Harrison/1',
    );
    expect(screen.getByRole('link', { name: 'Next property' }).getAttribute('href')).toBe(
      '/Maine/Harrison/3',
    );
    expect(screen.getByText('5 of 1,003')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to search' }).getAttribute('href')).toBe(
      '/Maine/Harrison/search',
    );
    expect(screen.getByText('To Print To PDF, press CTRL and P')).toBeTruthy();
  });

  it('has no Previous on the first result and no Next on the last', () => {
    renderBar(0);
    expect(screen.queryByRole('link', { name: 'Previous property' })).toBeNull();
    cleanup();
    renderBar(2);
    expect(screen.queryByRole('link', { name: 'Next property' })).toBeNull();
  });

  it('hides the navigation without stored results, and shows Pay Now with the amount due in a new tab', () => {
    renderBar(null, 'https://pay.example/1', '$1,234.56');
    expect(screen.queryByText(/ of /)).toBeNull();
    const pay = screen.getByRole('link', { name: /Pay Now/ });
    expect(pay.textContent).toContain('$1,234.56 due');
    expect(pay.getAttribute('href')).toBe('https://pay.example/1');
    expect(pay.getAttribute('target')).toBe('_blank');
  });
});
