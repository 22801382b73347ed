import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PropertyRecord } from '@opp/contracts';
import type { PropertyDetail } from '../api/get-property';
import { PropertyHeader } from './property-header';

/** A record as the server serves it: every field present (the contract's output). */
const detail = (over: object): PropertyDetail => ({
  ...PropertyRecord.parse({ Account: '1042', StreetNumber: '12', StreetName: 'MAIN ST', ...over }),
  LastUpdated: null,
});

describe('record header owners (issue 39)', () => {
  afterEach(cleanup);

  it('lists the owners with their mailing addresses', () => {
    render(
      <PropertyHeader
        p={detail({ Owners: [{ OwnerName: 'LIBBY, SARAH J', Address1: '12 MAIN ST', City: 'HARRISON' }] })}
      />,
    );
    expect(screen.getByText('LIBBY, SARAH J')).toBeTruthy();
    expect(screen.queryByText('Owner information withheld')).toBeNull();
  });

  it('says "Owner information withheld" when the server withholds them', () => {
    render(<PropertyHeader p={detail({ SuppressOwner: true })} />);
    expect(screen.getByText('Owner information withheld')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '12 MAIN ST' })).toBeTruthy();
  });
});

describe('record header dates (issue 48)', () => {
  afterEach(cleanup);
  const LastUpdated = '2025-03-14T12:00:00.000Z';

  it("shows the record's Last Updated with its date, and leaves the label out when it has none", () => {
    const { unmount } = render(<PropertyHeader p={detail({ DateUpdated: '2025-04-01' })} />);
    expect(screen.getByText('Last Updated').nextElementSibling?.textContent).toBe('04/01/2025');
    unmount();
    render(<PropertyHeader p={detail({})} />);
    expect(screen.queryByText('Last Updated')).toBeNull();
    // The other labels stay, each with its value; Book/Page, which it has none of, goes too.
    expect(screen.getByText('Account').nextElementSibling?.textContent).toBe('1042');
    expect(screen.queryByText('Book/Page')).toBeNull();
  });

  it("says what the roll's values date from, beside the day it was published", () => {
    const { unmount } = render(
      <PropertyHeader p={detail({})} dates={{ LastUpdated, TaxYear: 2014, ValuationDate: '2013-01-01' }} />,
    );
    expect(
      screen.getByText('Values as of 01/01/2013, fiscal year 2014 · published on this site 03/14/2025'),
    ).toBeTruthy();
    unmount();
    render(<PropertyHeader p={detail({})} dates={{ LastUpdated, TaxYear: null, ValuationDate: null }} />);
    expect(screen.getByText('Published on this site 03/14/2025')).toBeTruthy();
    expect(screen.queryByText(/Data as of/)).toBeNull();
  });
});
