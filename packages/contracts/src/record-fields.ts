/* Field lists of the property record that the public pages need at run time. No zod here (see addresses.ts). */

/** The user-defined value entries of §3, each a { Description, UserDefinedValue } pair. */
export const USER_DEFINED_FIELDS = [
  'PropertyCode',
  'TaxLimit',
  'TreeGrowthYear',
  'XCoord',
  'YCoord',
  'Open1',
  'Open2',
  'Open3',
  'Open4',
  'Reference1',
  'Reference2',
  'TranCode',
] as const;
