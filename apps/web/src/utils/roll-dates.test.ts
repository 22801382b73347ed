import { describe, expect, it } from 'vitest';
import { rollDatesText } from './roll-dates';

describe('rollDatesText', () => {
  const LastUpdated = '2025-03-14T12:00:00.000Z';

  it('says the date and fiscal year of the values, then the day the roll was published', () => {
    expect(rollDatesText({ LastUpdated, TaxYear: 2014, ValuationDate: '2013-01-01' })).toBe(
      'Values as of 01/01/2013, fiscal year 2014 · published on this site 03/14/2025',
    );
    expect(rollDatesText({ LastUpdated, TaxYear: null, ValuationDate: '2013-01-01' })).toBe(
      'Values as of 01/01/2013 · published on this site 03/14/2025',
    );
    expect(rollDatesText({ LastUpdated, TaxYear: 2014, ValuationDate: null })).toBe(
      'Values for fiscal year 2014 · published on this site 03/14/2025',
    );
  });

  it('labels a publish date alone as one, never as the date of the values', () => {
    expect(rollDatesText({ LastUpdated, TaxYear: null, ValuationDate: null })).toBe(
      'Published on this site 03/14/2025',
    );
    expect(rollDatesText({ LastUpdated })).toBe('Published on this site 03/14/2025');
    expect(rollDatesText({ LastUpdated: null })).toBe('');
    expect(rollDatesText(null)).toBe('');
  });
});
