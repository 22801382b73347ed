/**
 * The 50 US states (spec §9: "The name and abbreviation table covers the 50 US states").
 * Anywhere a state appears in a path or query, the name or the USPS abbreviation is accepted.
 */
export const US_STATES = [
  ['Alabama', 'AL'],
  ['Alaska', 'AK'],
  ['Arizona', 'AZ'],
  ['Arkansas', 'AR'],
  ['California', 'CA'],
  ['Colorado', 'CO'],
  ['Connecticut', 'CT'],
  ['Delaware', 'DE'],
  ['Florida', 'FL'],
  ['Georgia', 'GA'],
  ['Hawaii', 'HI'],
  ['Idaho', 'ID'],
  ['Illinois', 'IL'],
  ['Indiana', 'IN'],
  ['Iowa', 'IA'],
  ['Kansas', 'KS'],
  ['Kentucky', 'KY'],
  ['Louisiana', 'LA'],
  ['Maine', 'ME'],
  ['Maryland', 'MD'],
  ['Massachusetts', 'MA'],
  ['Michigan', 'MI'],
  ['Minnesota', 'MN'],
  ['Mississippi', 'MS'],
  ['Missouri', 'MO'],
  ['Montana', 'MT'],
  ['Nebraska', 'NE'],
  ['Nevada', 'NV'],
  ['New Hampshire', 'NH'],
  ['New Jersey', 'NJ'],
  ['New Mexico', 'NM'],
  ['New York', 'NY'],
  ['North Carolina', 'NC'],
  ['North Dakota', 'ND'],
  ['Ohio', 'OH'],
  ['Oklahoma', 'OK'],
  ['Oregon', 'OR'],
  ['Pennsylvania', 'PA'],
  ['Rhode Island', 'RI'],
  ['South Carolina', 'SC'],
  ['South Dakota', 'SD'],
  ['Tennessee', 'TN'],
  ['Texas', 'TX'],
  ['Utah', 'UT'],
  ['Vermont', 'VT'],
  ['Virginia', 'VA'],
  ['Washington', 'WA'],
  ['West Virginia', 'WV'],
  ['Wisconsin', 'WI'],
  ['Wyoming', 'WY'],
] as const satisfies ReadonlyArray<readonly [string, string]>;

export type UsStateName = (typeof US_STATES)[number][0];

const byKey = new Map<string, string>();
for (const [name, abbr] of US_STATES) {
  byKey.set(name.toLowerCase(), name);
  byKey.set(abbr.toLowerCase(), name);
}

/** Canonical state name for a name or abbreviation in any case ("me", "Maine", "MAINE"); null when unknown. */
export function resolveStateName(value: string): string | null {
  return byKey.get(value.trim().replace(/\s+/g, ' ').toLowerCase()) ?? null;
}

export function stateAbbreviation(name: string): string | null {
  const found = US_STATES.find(([n]) => n === name);
  return found ? found[1] : null;
}
