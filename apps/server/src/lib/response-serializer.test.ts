import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AbuttersResponse, ErrorBody, FullProperty, ParcelCollection, ParcelFeature } from '@opp/contracts';
import { compileResponseSerializer } from './response-serializer.ts';

/*
 * The compiled serializers of the large public answers write what the zod schema (and so the OpenAPI
 * document) declares, and nothing else: the same JSON as checking the answer with zod and writing its
 * output, for answers holding fields nobody declared at every level.
 */

const square = [
  [
    [-70.1, 43.1],
    [-70.09, 43.1],
    [-70.09, 43.11],
    [-70.1, 43.1],
  ],
];
const properties = { Account: '12', MapLot: 'R01-002', Location: '4 MAIN ST', Records: 1 };
const feature = {
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: square, bbox: [0, 0, 1, 1] },
  properties: { ...properties, OwnerName: 'SMITH, JANE', OnParcel: 'R01' },
  id: 7,
};
const multi = {
  type: 'Feature',
  geometry: { type: 'MultiPolygon', coordinates: [square, square], crs: 'EPSG:4326' },
  properties: { ...properties, Account: '13', Secret: true },
};
const owner = {
  OwnerName: 'SMITH, JANE',
  Address1: '4 MAIN ST',
  Address2: '',
  Address3: '',
  City: 'HARRISON',
  State: 'ME',
  ZipCode: '04040',
  Country: '',
};
const abutters = {
  Subject: { ...properties, Email: 'x@example.org' },
  DistanceFeet: 300,
  MapDate: '2026-11-01',
  Town: { City: 'Harrison', State: 'ME', ClientId: 3 },
  Abutters: [
    {
      Account: '14',
      MapLot: 'R01-003',
      Location: '6 MAIN ST',
      DistanceFeet: 0,
      Owners: [{ ...owner, Phone: '555-0100' }],
      Internal: { rowId: 99 },
    },
  ],
  Debug: 'query plan',
};

function sameAsZod(schema: z.ZodType, answer: unknown) {
  const compiled = JSON.parse(compileResponseSerializer(schema)(answer)) as unknown;
  expect(compiled).toEqual(schema.parse(answer));
  return compiled;
}

describe('compiled response serializers', () => {
  it("write a parcel and a map box's declared fields only, polygons and multipolygons alike", () => {
    const one = sameAsZod(ParcelFeature, feature) as typeof feature;
    expect(one.geometry).toEqual({ type: 'Polygon', coordinates: square });
    expect(one.properties).not.toHaveProperty('OwnerName');
    expect(one).not.toHaveProperty('id');
    const box = sameAsZod(ParcelCollection, {
      type: 'FeatureCollection',
      features: [feature, multi],
      Truncated: false,
      Total: 2,
    });
    expect(JSON.stringify(box)).not.toMatch(/Secret|crs|Total|OwnerName/);
  });

  it("write an abutters list's declared fields only", () => {
    const list = sameAsZod(AbuttersResponse, abutters);
    expect(JSON.stringify(list)).not.toMatch(/Email|ClientId|Phone|Internal|Debug/);
  });

  it('write a full record and an error body as zod does, nulls included', () => {
    const record = Object.fromEntries(
      Object.entries(FullProperty.shape).map(([key, field]) => {
        const json = field.toJSONSchema();
        const nullable = JSON.stringify(json).includes('"null"');
        const value = nullable ? null : json.type === 'array' ? [] : json.type === 'boolean' ? false : key;
        return [key, value];
      }),
    );
    const full = sameAsZod(FullProperty, {
      ...record,
      Owners: [owner],
      Sales: [{ SaleDate: '2020-01-01', SalePrice: 1, SaleParty: '' }],
      LandValue: 10_000,
      ValueHistory: [{ Year: 2025, LandValue: null, BuildingValue: 5, TotalValue: 5, Note: 'x' }],
      PackedFormat: 3,
    });
    expect(full).not.toHaveProperty('PackedFormat');
    sameAsZod(ErrorBody, {
      statusCode: 404,
      code: 'not_found',
      message: 'No such parcel',
      error: 'Not Found',
      stack: 'at …',
    });
  });
});
