import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { fastChecks, PropertyRecord, UserDefinedValue } from '@opp/contracts';
import { checkedBySchema, fastParseRecord } from './record-fast-path.ts';

/*
 * The fast path may give up (null) whenever it likes, but when it answers it must answer exactly what
 * zod answers. It is compiled from the schema in packages/contracts; these tests probe every field the
 * schema has (read from it too), so a building block whose declared check says something other than its
 * schema fails here instead of letting a bad record in.
 */

/** Fast answer agrees with zod: null (zod decides) or zod's own output. Returns whether it answered. */
function agrees(input: unknown): boolean {
  const fast = fastParseRecord(input);
  if (fast === null) return false;
  const slow = PropertyRecord.safeParse(input);
  expect(slow.success, `fast path accepted what zod rejects: ${JSON.stringify(input)?.slice(0, 300)}`).toBe(
    true,
  );
  expect(fast).toStrictEqual(slow.data);
  expect(Object.keys(fast)).toEqual(Object.keys(slow.data!));
  return true;
}

const shapeOf = (o: z.ZodObject) => o.shape as Record<string, z.ZodType>;

/** The repeated groups of the record (lists of objects), as the schema declares them. */
const groups = Object.entries(shapeOf(PropertyRecord)).flatMap(([list, schema]) => {
  const check = fastChecks.get(schema);
  return check?.k === 'list' && check.item.def.type === 'object'
    ? [[list, shapeOf(check.item as z.ZodObject)] as const]
    : [];
});

/** A text field's limit, at and around which it is probed. */
const maxOf = (schema: z.ZodType) => {
  const check = fastChecks.get(schema);
  return check?.k === 'text' ? check.max : null;
};

const base = () => ({ Account: 'A1' });
const minimalItem = (list: string): Record<string, unknown> =>
  list === 'Owners'
    ? { OwnerName: 'X' }
    : list === 'Taxes'
      ? { TaxYear: 2024 }
      : list === 'ValueHistory'
        ? { Year: 2024 }
        : {};

const PROBES: unknown[] = [
  undefined,
  null,
  '',
  'a',
  ' padded ',
  'tab\there',
  'nul\u0000',
  'é ü 漢字',
  0,
  -0,
  1,
  1.5,
  -7,
  2000,
  1799,
  1800,
  2200,
  2201,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  1e15,
  -1e15,
  999_999_999_999_999,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '12',
  'N/A',
  true,
  {},
  [],
  ['a'],
  '2024-02-29',
  '2023-02-29',
  '1900-02-29',
  '2000-02-29',
  '2024-04-31',
  '2024-13-01',
  '0000-01-01',
  '2024-01-01T12:00:00Z',
  ' 2024-01-01',
  '2024-1-1',
];

/** Strings at and around each declared limit. */
const lengths = (max: number) => [max - 1, max, max + 1].map((n) => 'x'.repeat(Math.max(0, n)));

describe('fastParseRecord', () => {
  it('checks every field itself but the links, which their own rule checks', () => {
    expect(groups.map(([list]) => list)).toEqual([
      'Owners',
      'Exemptions',
      'Sales',
      'Land',
      'Buildings',
      'CommercialBuildings',
      'BuildingAdditions',
      'Taxes',
      'ValueHistory',
    ]);
    expect(checkedBySchema).toEqual(['GISLink', 'Images[]']);
  });

  it('agrees with zod on every top-level field, at every probe and length limit', () => {
    for (const [field, schema] of Object.entries(shapeOf(PropertyRecord))) {
      const max = maxOf(schema);
      const probes = [...PROBES, ...(max === null ? [] : lengths(max))];
      for (const probe of probes) agrees({ ...base(), [field]: probe });
    }
    for (const probe of [...PROBES, ...lengths(64), 'a b', '-a', 'a.b_c-d', 42]) agrees({ Account: probe });
  });

  it('agrees with zod on every field of every repeated group', () => {
    for (const [list, shape] of groups) {
      for (const [field, schema] of Object.entries(shape)) {
        const max = maxOf(schema);
        const probes = [...PROBES, ...(max === null ? [] : lengths(max))];
        for (const probe of probes) agrees({ ...base(), [list]: [{ ...minimalItem(list), [field]: probe }] });
      }
    }
    for (const [field, schema] of Object.entries(shapeOf(UserDefinedValue))) {
      const max = maxOf(schema);
      for (const probe of [...PROBES, ...(max === null ? [] : lengths(max))])
        agrees({ ...base(), PropertyCode: { [field]: probe } });
    }
  });

  it('agrees with zod on list sizes and non-list values', () => {
    const owner = { OwnerName: 'X' };
    for (const n of [0, 49, 50, 51]) agrees({ ...base(), Owners: Array.from({ length: n }, () => owner) });
    for (const n of [49, 50, 51]) agrees({ ...base(), Images: Array.from({ length: n }, () => '/a.jpg') });
    for (const bad of ['x', 5, {}, [null], [5], ['x'.repeat(1001)]]) {
      agrees({ ...base(), Owners: bad });
      agrees({ ...base(), Images: bad });
    }
  });

  it('agrees with zod on links: stored form, normalised, refused (issue 37)', () => {
    const links = [
      'https://maps.town.gov/?id=1',
      'maps.town.gov/?id=1',
      ' https://maps.town.gov/ ',
      'HTTPS://MAPS.TOWN.GOV/',
      '\njavascript:alert(1)%2F%2F@x.com',
      'java\tscript:alert(1)',
      'javascript:alert(1)',
      'https://town.gov@evil.example/',
      '/api/files/image/p1.jpg',
      '//evil.example/a.jpg',
      '/\\evil.example/a.jpg',
      '/%09/evil.example/',
    ];
    for (const probe of links) {
      agrees({ ...base(), GISLink: probe });
      agrees({ ...base(), Images: [probe] });
    }
    expect(fastParseRecord({ ...base(), GISLink: 'https://maps.town.gov/?id=1' })).not.toBeNull();
    expect(fastParseRecord({ ...base(), Images: ['/api/files/image/p1.jpg'] })).not.toBeNull();
  });

  it('answers for ordinary full records, so imports really take the fast path', () => {
    const rec = {
      Account: '1042',
      StreetNumber: '12',
      StreetName: 'MAIN ST',
      MapLot: 'R01-002',
      LandValue: 40000,
      DateUpdated: '2024-04-01',
      Owners: [{ OwnerName: 'DOE, JANE', City: 'HARRISON', ZipCode: '04040' }],
      Sales: [{ SaleDate: '2019-05-01', SalePrice: 200000 }],
      Taxes: [{ TaxYear: 2024, Rate: 0.0148, OutstandingTaxBalance: 0 }],
      PropertyCode: { Description: 'Property Code', UserDefinedValue: '101' },
      Extra: 'ignored',
    };
    expect(agrees(rec)).toBe(true);
  });

  it('never disagrees with zod on random records', () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string({ maxLength: 30 }),
      fc.double(),
      fc.integer({ min: 1700, max: 2300 }),
      fc.integer(),
      fc.constantFrom('2024-02-29', '2023-02-29', '2024-12-31', '2024-00-10', '1999-09-09T00:00'),
      fc.boolean(),
    );
    const item = fc.dictionary(
      fc.constantFrom(...new Set(groups.flatMap(([, shape]) => Object.keys(shape))), 'Extra'),
      value,
      { maxKeys: 8 },
    );
    const record = fc.record(
      {
        Account: fc.oneof(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,8}$/), fc.string(), fc.nat()),
        StreetName: value,
        LandValue: value,
        DateUpdated: value,
        Owners: fc.oneof(fc.constant(undefined), fc.array(item, { maxLength: 3 })),
        Sales: fc.oneof(fc.constant(null), fc.array(item, { maxLength: 3 })),
        Buildings: fc.array(item, { maxLength: 2 }),
        Taxes: fc.array(item, { maxLength: 2 }),
        TaxLimit: fc.oneof(
          fc.constant(null),
          fc.dictionary(fc.constantFrom('Description', 'UserDefinedValue'), value),
        ),
      },
      { requiredKeys: ['Account'] },
    );
    fc.assert(
      fc.property(record, (r) => void agrees(r)),
      { numRuns: 3000 },
    );
  });
});
