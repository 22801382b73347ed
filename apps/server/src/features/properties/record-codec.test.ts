import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Owner, PropertyRecord, USER_DEFINED_FIELDS } from '@opp/contracts';
import {
  layoutIsCurrent,
  olderLayoutsHold,
  packRecord,
  recordLayoutHash,
  unpackRecord,
} from './record-codec.ts';

/*
 * The stored form must give back, byte for byte, what JSON.stringify of the checked record writes (what
 * the property page served when records were stored whole), for any record the contract accepts.
 */

const text = fc.string({ maxLength: 12 });
const num = fc.oneof(
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e14, max: 1e14 }),
);
const date = fc.oneof(fc.constant(null), fc.constantFrom('2024-02-29', '1999-12-31', '2020-01-01'));
const udv = fc.oneof(fc.constant(null), fc.record({ Description: text, UserDefinedValue: text }));

const record = fc.record(
  {
    Account: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,8}$/),
    StreetName: text,
    LandValue: num,
    TotalAcres: num,
    DateUpdated: date,
    // Links the contract keeps as they are (it refuses or rewrites others).
    Images: fc.array(fc.stringMatching(/^\/api\/files\/image\/[a-z0-9]{1,8}\.jpg$/), { maxLength: 2 }),
    Owners: fc.array(fc.record({ OwnerName: text, Address1: text, ZipCode: text }), { maxLength: 3 }),
    Exemptions: fc.array(fc.record({ ExemptionID: text, Value: num }), { maxLength: 2 }),
    Sales: fc.array(fc.record({ SaleDate: date, SalePrice: num, SaleParty: text }), { maxLength: 3 }),
    Land: fc.array(fc.record({ LandDescription: text, Amount: num }), { maxLength: 2 }),
    Buildings: fc.array(
      fc.record({ BuildingType: text, Bedrooms: num, YearBuilt: fc.integer({ min: 1700, max: 2100 }) }),
      { maxLength: 2 },
    ),
    CommercialBuildings: fc.array(fc.record({ Class: text, Value: num }), { maxLength: 2 }),
    BuildingAdditions: fc.array(fc.record({ AdditionType: text, AdditionValue: num }), { maxLength: 2 }),
    Taxes: fc.array(
      fc.record({ TaxYear: fc.integer({ min: 1800, max: 2200 }), Rate: num, EffectiveDate: date }),
      { maxLength: 2 },
    ),
    ValueHistory: fc.array(
      fc.record({ Year: fc.integer({ min: 1800, max: 2200 }), LandValue: num, TotalValue: num }),
      { maxLength: 3 },
    ),
    ...Object.fromEntries(USER_DEFINED_FIELDS.map((f) => [f, udv])),
  },
  { requiredKeys: ['Account'] },
);

describe('record codec', () => {
  it("stores the values in the contract's field order, its objects' fields in theirs", () => {
    const checked = PropertyRecord.parse({
      Account: 'ORDER-1',
      Owners: [Object.fromEntries(Object.keys(Owner.shape).map((k) => [k, `owner ${k}`]))],
      PropertyCode: { Description: 'd', UserDefinedValue: 'u' },
    });
    const packed = JSON.parse(packRecord(checked)) as unknown[];
    // ValueHistory is not stored: the town's valuation history is a table of its own (migrations/0022).
    const fields = (Object.keys(PropertyRecord.shape) as (keyof PropertyRecord)[]).filter(
      (f) => f !== 'ValueHistory',
    );
    expect(packed).toHaveLength(fields.length + 1);
    fields.forEach((field, i) => {
      const value = checked[field];
      if (field === 'Owners')
        expect(packed[i + 1]).toEqual([Object.keys(Owner.shape).map((k) => `owner ${k}`)]);
      else if (field === 'PropertyCode') expect(packed[i + 1]).toEqual(['d', 'u']);
      else expect(packed[i + 1], field).toEqual(value);
    });
  });

  it("is told when the contract's fields change: a stored version keeps one layout", () => {
    // Rolls already stored keep their version's layout. A change to PropertyRecord's fields (added,
    // removed, moved) changes the layout: give record-codec.ts a new version for it, and list an added
    // field as lacking in every older version, whose readers must still read the layouts they stored.
    expect(
      layoutIsCurrent,
      `PropertyRecord's layout ${recordLayoutHash} is not the one the newest version stores: add a version`,
    ).toBe(true);
    expect(olderLayoutsHold(), 'an older version no longer reads the layout it stored').toBe(true);
  });

  it('reads a roll stored by version 1 (before ValueHistory) with an empty history', () => {
    const current = PropertyRecord.parse({
      Account: 'V1-1',
      StreetName: 'MAIN ST',
      Taxes: [{ TaxYear: 2022, Rate: 0.02 }],
      PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
    });
    // Version 1's array: the same values without SuppressOwner (stored after TranCode, last).
    const packed = JSON.parse(packRecord(current)) as unknown[];
    expect(packed.at(-1)).toBe(false);
    const version1 = [1, ...packed.slice(1, -1)];
    expect(unpackRecord(JSON.stringify(version1))).toBe(JSON.stringify(current));
    expect(JSON.parse(unpackRecord(JSON.stringify(version1)))).toMatchObject({ ValueHistory: [] });
  });

  it('reads a roll stored by version 2 (ValueHistory stored first) with its history in its place', () => {
    const history = [{ Year: 2021, LandValue: 1, BuildingValue: 2, TotalValue: 3 }];
    const current = PropertyRecord.parse({ Account: 'V2-1', StreetName: 'MAIN ST', ValueHistory: history });
    const packed = JSON.parse(packRecord(current)) as unknown[];
    const version2 = [2, [[2021, 1, 2, 3]], ...packed.slice(1)];
    expect(unpackRecord(JSON.stringify(version2))).toBe(JSON.stringify(current));
  });

  it('gives back exactly what JSON.stringify writes of any checked record', () => {
    fc.assert(
      fc.property(record, (input) => {
        const checked = PropertyRecord.parse(input);
        expect(unpackRecord(packRecord(checked))).toBe(JSON.stringify({ ...checked, ValueHistory: [] }));
      }),
      { numRuns: 2000 },
    );
  });

  it('stores a full record in about a third of its JSON, text that needs escaping included', () => {
    const checked = PropertyRecord.parse({
      Account: 'R-1',
      StreetName: 'TAB\tST "Q" \\ \u2028 é 漢字',
      Owners: [{ OwnerName: 'ROE, JANE' }, { OwnerName: 'DOE, JOHN' }],
      Sales: [{ SaleDate: '2020-01-02', SalePrice: 100 }],
      Buildings: [{ BuildingType: 'CAPE', Bedrooms: 3 }],
      Taxes: [{ TaxYear: 2024, Rate: 0.01898 }],
      PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
    });
    const packed = packRecord(checked);
    expect(packed.startsWith('[3,')).toBe(true);
    expect(packed.length).toBeLessThan(JSON.stringify(checked).length / 2);
    expect(unpackRecord(packed)).toBe(JSON.stringify(checked));
  });

  it('serves a record stored whole (rolls imported before packing) as it is', () => {
    const whole = JSON.stringify(PropertyRecord.parse({ Account: 'OLD-1' }));
    expect(unpackRecord(whole)).toBe(whole);
  });

  it('refuses a stored form it does not know rather than guess', () => {
    const packed = JSON.parse(packRecord(PropertyRecord.parse({ Account: 'A' }))) as unknown[];
    expect(() => unpackRecord(JSON.stringify([99, ...packed.slice(1)]))).toThrow(
      /unknown stored record format/,
    );
    expect(() => unpackRecord(JSON.stringify(packed.slice(0, -1)))).toThrow(/unknown stored record format/);
    expect(() => unpackRecord(JSON.stringify([1, ...packed.slice(1)]))).toThrow(
      /unknown stored record format/,
    );
  });
});
