import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PropertyRecord } from '@opp/contracts';
import type { PropertyDetail } from '../api/get-property';
import { PropertyInfoSection, ValuationHistorySection } from './property-sections';

const detail = (input: Partial<PropertyDetail>): PropertyDetail => ({
  ...PropertyRecord.parse({ Account: 'A-1', ...input }),
  LastUpdated: null,
});

describe('Valuation History section', () => {
  afterEach(cleanup);

  it('lists each year newest first, whatever order the roll gave', () => {
    render(
      <ValuationHistorySection
        p={detail({
          ValueHistory: [
            { Year: 2021, LandValue: 40000, BuildingValue: 160000, TotalValue: 200000 },
            { Year: 2023, LandValue: 45000, BuildingValue: null, TotalValue: 45000 },
            { Year: 2022, LandValue: 42000, BuildingValue: 170000.5, TotalValue: 212000.5 },
          ],
        })}
      />,
    );
    const section = screen.getByRole('region', { name: 'Valuation History' });
    const table = within(section).getByRole('table', { name: 'Valuation history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['2023', '$45,000', '', '$45,000'],
      ['2022', '$42,000', '$170,000.50', '$212,000.50'],
      ['2021', '$40,000', '$160,000', '$200,000'],
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Year', 'Land Value', 'Building Value', 'Total Value']);
  });

  it('shows "No Data" like the other sections when there is no history', () => {
    render(<ValuationHistorySection p={detail({})} />);
    const section = screen.getByRole('region', { name: 'Valuation History' });
    expect(within(section).getByText('No Data')).toBeTruthy();
    expect(within(section).queryByRole('table')).toBeNull();
  });
});

describe('Property section lot size (issue 48)', () => {
  afterEach(cleanup);

  it('gives a small lot its square feet beside the acres, and a large one its acres alone', () => {
    const { unmount } = render(<PropertyInfoSection p={detail({ TotalAcres: 1057 / 43_560 })} />);
    expect(screen.getByText('Total Acres').nextElementSibling?.textContent).toBe('0.02 (1,057 sq ft)');
    unmount();
    render(<PropertyInfoSection p={detail({ TotalAcres: 2.5 })} />);
    expect(screen.getByText('Total Acres').nextElementSibling?.textContent).toBe('2.50');
  });
});
