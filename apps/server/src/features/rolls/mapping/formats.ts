import maineGeolibrary from './formats/maine-geolibrary.json' with { type: 'json' };
import massgisL3 from './formats/massgis-l3.json' with { type: 'json' };
import vision from './formats/vision.json' with { type: 'json' };
import { MappingError, readMapping, type Mapping } from './mapping-file.ts';

/*
 * The built-in formats: mapping files like any other (formats/*.json), shipped with the code so that a
 * town exporting one of these layouts needs no mapping of its own.
 */

const BUILT_IN: Record<string, unknown> = {
  'massgis-l3': massgisL3,
  'maine-geolibrary': maineGeolibrary,
  vision,
};

export interface FormatSummary {
  name: string;
  description: string;
}

export function listFormats(): FormatSummary[] {
  return Object.entries(BUILT_IN).map(([name, json]) => ({
    name,
    description: (json as { description?: string }).description ?? '',
  }));
}

/** A built-in format's mapping, or a MappingError listing the names there are. */
export function builtInFormat(name: string): Mapping {
  const json = Object.hasOwn(BUILT_IN, name) ? BUILT_IN[name] : undefined;
  if (json === undefined)
    throw new MappingError(name, [
      `no such format (the formats are ${Object.keys(BUILT_IN).join(', ')}; or use a mapping file)`,
    ]);
  return readMapping(json, `format ${name}`);
}
