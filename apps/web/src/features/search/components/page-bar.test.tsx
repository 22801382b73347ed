import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageBar } from './page-bar';

const input = () => screen.getByLabelText('Page number') as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('page bar (spec §2, §5)', () => {
  afterEach(cleanup);

  it('shows « ‹ [n] of N › » and ignores first/previous on page 1', async () => {
    const onPage = vi.fn();
    render(<PageBar page={1} pages={3} onPage={onPage} />);
    expect(input().value).toBe('1');
    expect(screen.getByText('of 3')).toBeTruthy();
    expect(button('First page').disabled).toBe(true);
    expect(button('Previous page').disabled).toBe(true);
    await userEvent.click(button('Next page'));
    await userEvent.click(button('Last page'));
    expect(onPage.mock.calls).toEqual([[2], [3]]);
  });

  it('ignores next/last on the last page', () => {
    render(<PageBar page={3} pages={3} onPage={vi.fn()} />);
    expect(button('Next page').disabled).toBe(true);
    expect(button('Last page').disabled).toBe(true);
    expect(button('First page').disabled).toBe(false);
  });

  it('goes to a typed page in range and reverts a page out of range', async () => {
    const onPage = vi.fn();
    render(<PageBar page={2} pages={3} onPage={onPage} />);
    await userEvent.clear(input());
    await userEvent.type(input(), '9{Enter}');
    expect(onPage).not.toHaveBeenCalled();
    expect(input().value).toBe('2');
    await userEvent.clear(input());
    await userEvent.type(input(), '0{Enter}');
    expect(input().value).toBe('2');
    await userEvent.clear(input());
    await userEvent.type(input(), '3{Enter}');
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it('reverts a negative or non-numeric page instead of reading its digits', async () => {
    const onPage = vi.fn();
    render(<PageBar page={1} pages={30} onPage={onPage} />);
    await userEvent.clear(input());
    await userEvent.type(input(), '-3{Enter}');
    expect(input().value).toBe('1');
    await userEvent.clear(input());
    await userEvent.type(input(), '1a2{Enter}');
    expect(input().value).toBe('1');
    expect(onPage).not.toHaveBeenCalled();
    await userEvent.clear(input());
    await userEvent.type(input(), '12{Enter}');
    expect(onPage).toHaveBeenCalledWith(12);
  });
});
