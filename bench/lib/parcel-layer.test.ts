import { describe, expect, it } from 'vitest';
import {
  cleanPolygons,
  localProjection,
  projectShape,
  shapeDistance,
} from '../../apps/server/src/features/parcels/parcel-geometry.ts';
import { datasetSpec } from './generator.ts';
import { parcelLayerFeatures, parcelLayout } from './parcel-layer.ts';

describe("the county's synthetic parcel layer", () => {
  const spec = datasetSpec('quick');
  const county = { ...spec.big, parcels: 400 };
  const lots = [...parcelLayerFeatures(spec.seed, county)];
  const layout = parcelLayout(spec.seed, county);
  const project = localProjection(layout.bounds[0], layout.bounds[1]);
  const planar = lots.map((f) => {
    const cleaned = cleanPolygons(f.geometry);
    if (!cleaned.ok) throw new Error(cleaned.problem);
    expect(cleaned.repairs).toEqual([]);
    return projectShape(cleaned.coordinates, project);
  });

  it('has one usable lot per record, keyed by its account, the same for the same inputs', () => {
    expect(lots).toHaveLength(400);
    expect(lots.map((f) => f.properties.Account)).toEqual(lots.map((_f, i) => String(i + 1)));
    expect(JSON.stringify(parcelLayout(spec.seed, county).lot(123))).toBe(JSON.stringify(lots[123]));
    expect(JSON.stringify(parcelLayout('another seed', county).lot(123))).not.toBe(JSON.stringify(lots[123]));
  });

  it('lays lots side by side and back to back (touching), blocks apart across streets', () => {
    // Lots 0–9 face the street, 10–19 behind them; block 2 starts at lot 20, a street away.
    expect(shapeDistance(planar[0]!, planar[1]!)).toBe(0);
    expect(shapeDistance(planar[3]!, planar[13]!)).toBe(0);
    expect(shapeDistance(planar[0]!, planar[2]!)).toBeGreaterThan(40);
    const street = shapeDistance(planar[9]!, planar[20]!);
    expect(street).toBeGreaterThan(55);
    expect(street).toBeLessThan(65);
  });
});
