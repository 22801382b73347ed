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
