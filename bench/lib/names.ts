/*
 * Word lists for the generator. Frequent items first: the generator samples them with Zipf weights, so
 * SMITH and MAIN ST are as common in the synthetic roll as in a real New England one. Synthetic
 * syllable names give the long tail (a county roll has tens of thousands of distinct surnames).
 */

// prettier-ignore
export const SURNAMES = [
  'SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'MILLER', 'DAVIS', 'WILSON', 'ANDERSON', 'TAYLOR',
  'THOMAS', 'MOORE', 'MARTIN', 'JACKSON', 'THOMPSON', 'WHITE', 'CLARK', 'LEWIS', 'ROBINSON', 'WALKER',
  'YOUNG', 'ALLEN', 'KING', 'WRIGHT', 'SCOTT', 'HILL', 'GREEN', 'ADAMS', 'BAKER', 'NELSON',
  'CARTER', 'MITCHELL', 'ROBERTS', 'TURNER', 'PHILLIPS', 'CAMPBELL', 'PARKER', 'EVANS', 'EDWARDS', 'COLLINS',
  'STEWART', 'MORRIS', 'MURPHY', 'COOK', 'ROGERS', 'MORGAN', 'COOPER', 'PETERSON', 'BAILEY', 'REED',
  'KELLY', 'HOWARD', 'COX', 'WARD', 'RICHARDSON', 'WATSON', 'BROOKS', 'WOOD', 'JAMES', 'BENNETT',
  'GRAY', 'HUGHES', 'PRICE', 'SANDERS', 'MYERS', 'LONG', 'ROSS', 'FOSTER', 'POWELL', 'JENKINS',
  'PERRY', 'RUSSELL', 'SULLIVAN', 'BELL', 'COLEMAN', 'BUTLER', 'HENDERSON', 'BARNES', 'FISHER', 'HAYES',
  'GRAHAM', 'WALLACE', 'WEST', 'COLE', 'HAMILTON', 'ELLIS', 'MARSHALL', 'OWENS', 'HARRISON', 'GIBSON',
  'MCDONALD', 'KENNEDY', 'WELLS', 'HUNT', 'PALMER', 'BLACK', 'STONE', 'HOLMES', 'BOYD', 'MASON',
  'DUNN', 'KNIGHT', 'BURNS', 'WEBB', 'TUCKER', 'FREEMAN', 'ARNOLD', 'HENRY', 'BOUCHARD', 'PELLETIER',
  'GAGNON', 'MICHAUD', 'CYR', 'THERIAULT', 'OUELLETTE', 'LEVESQUE', 'PARADIS', 'DUBE', 'GAUDREAU', 'BERUBE',
  "O'BRIEN", "O'CONNOR", "O'NEIL", 'MCCARTHY', 'DOYLE', 'FITZGERALD', 'SMALL', 'SMILEY', 'SMALLEY', 'SMART',
  'SMITHSON', 'SMYTH', 'SMEDLEY', 'SNOW', 'SPRAGUE', 'STAPLES', 'STEVENS', 'STORY', 'STROUT', 'TIBBETTS',
  'WEYMOUTH', 'WHITNEY', 'WINSLOW', 'WITHAM', 'YORK', 'ALLARD', 'BRAGDON', 'CHADBOURNE', 'DYER', 'EMERY',
  'FARNSWORTH', 'GOULD', 'HASKELL', 'HATCH', 'HUTCHINS', 'JORDAN', 'KNOWLTON', 'LIBBY', 'LITTLEFIELD', 'LORD',
  'MERRILL', 'MORSE', 'NASON', 'NORTON', 'PIKE', 'PLUMMER', 'QUIMBY', 'RICKER', 'SAWYER', 'SHAW',
  'SMITH-JONES', 'GARCIA', 'MARTINEZ', 'RODRIGUEZ', 'LOPEZ', 'HERNANDEZ', 'GONZALEZ', 'NGUYEN', 'LEE', 'KIM',
  'PATEL', 'SINGH', 'CHEN', 'WANG', 'MULLER', 'SCHMIDT', 'KOWALSKI', 'NOWAK', 'ROSSI', 'RUSSO',
];

// prettier-ignore
export const FIRST_NAMES = [
  'JOHN', 'MARY', 'ROBERT', 'PATRICIA', 'JAMES', 'JENNIFER', 'MICHAEL', 'LINDA', 'WILLIAM', 'ELIZABETH',
  'DAVID', 'BARBARA', 'RICHARD', 'SUSAN', 'JOSEPH', 'JESSICA', 'THOMAS', 'SARAH', 'CHARLES', 'KAREN',
  'CHRISTOPHER', 'NANCY', 'DANIEL', 'LISA', 'MATTHEW', 'BETTY', 'ANTHONY', 'MARGARET', 'MARK', 'SANDRA',
  'DONALD', 'ASHLEY', 'STEVEN', 'KIMBERLY', 'PAUL', 'EMILY', 'ANDREW', 'DONNA', 'JOSHUA', 'MICHELLE',
  'KENNETH', 'DOROTHY', 'KEVIN', 'CAROL', 'BRIAN', 'AMANDA', 'GEORGE', 'MELISSA', 'EDWARD', 'DEBORAH',
  'RONALD', 'STEPHANIE', 'TIMOTHY', 'REBECCA', 'JASON', 'SHARON', 'JEFFREY', 'LAURA', 'RYAN', 'CYNTHIA',
  'JACOB', 'KATHLEEN', 'GARY', 'AMY', 'NICHOLAS', 'SHIRLEY', 'ERIC', 'ANGELA', 'JONATHAN', 'HELEN',
  'STEPHEN', 'ANNA', 'LARRY', 'BRENDA', 'JUSTIN', 'PAMELA', 'SCOTT', 'NICOLE', 'BRANDON', 'EMMA',
  'BENJAMIN', 'SAMANTHA', 'SAMUEL', 'KATHERINE', 'GREGORY', 'CHRISTINE', 'FRANK', 'DEBRA', 'ALEXANDER', 'RACHEL',
  'RAYMOND', 'CATHERINE', 'PATRICK', 'CAROLYN', 'JACK', 'JANET', 'DENNIS', 'RUTH', 'JERRY', 'MARIA',
  'NORMAND', 'LUCILLE', 'MARCEL', 'GISELE', 'ROLAND', 'JEANNINE', 'ELWOOD', 'ARLENE', 'ALTON', 'MURIEL',
];

// prettier-ignore
const SYLLABLE_START = [
  'AB', 'AL', 'AN', 'AR', 'BA', 'BE', 'BO', 'BR', 'BU', 'CA', 'CH', 'CL', 'CO', 'CR', 'DA', 'DE', 'DO', 'DR',
  'DU', 'EL', 'FA', 'FE', 'FO', 'FR', 'GA', 'GI', 'GO', 'GR', 'HA', 'HE', 'HO', 'HU', 'JA', 'JO', 'KA', 'KE',
  'KI', 'LA', 'LE', 'LI', 'LO', 'MA', 'ME', 'MI', 'MO', 'NA', 'NE', 'NO', 'OL', 'PA', 'PE', 'PO', 'PR', 'RA',
  'RE', 'RI', 'RO', 'SA', 'SE', 'SH', 'SI', 'SO', 'ST', 'TA', 'TE', 'TH', 'TO', 'TR', 'VA', 'VE', 'WA', 'WE',
  'WI', 'ZA',
];
const SYLLABLE_MID = ['', '', 'R', 'N', 'L', 'ND', 'RT', 'SS', 'CK', 'MB', 'NT', 'LL', 'TT', 'RR', 'V', 'Z'];
// prettier-ignore
const SYLLABLE_END = [
  'SON', 'TON', 'LEY', 'MAN', 'ER', 'ELL', 'INS', 'OWSKI', 'ETTE', 'EAU', 'AULT', 'BERG', 'STEIN', 'WOOD',
  'FORD', 'FIELD', 'ARD', 'IN', 'ON', 'AN', 'EN', 'ES', 'EY', 'IE', 'OW', 'ICK', 'ISH', 'ET', 'ARDI', 'ELLI',
];

/** Every combination of the syllable lists, in a fixed order: about 36,000 rare surnames. */
export function syntheticSurnames(): string[] {
  const out: string[] = [];
  for (const e of SYLLABLE_END)
    for (const s of SYLLABLE_START) for (const m of SYLLABLE_MID) out.push(s + m + e);
  return [...new Set(out)];
}

// prettier-ignore
export const COMPANY_WORDS = [
  'PINE TREE', 'NORTHEAST', 'COASTAL', 'GRANITE', 'HARBOR', 'EVERGREEN', 'LIBERTY', 'SUMMIT', 'RIVERSIDE',
  'LAKESIDE', 'HERITAGE', 'ATLANTIC', 'MAPLEWOOD', 'FIRST', 'UNITED', 'CENTRAL', 'VALLEY', 'MEADOW',
];
export const COMPANY_SUFFIXES = [
  'LLC',
  'INC',
  'REALTY TRUST',
  'PROPERTIES LLC',
  'HOLDINGS LLC',
  'CORP',
  'LP',
];

// prettier-ignore
export const STREET_BASES = [
  'MAIN', 'HIGH', 'ELM', 'SCHOOL', 'CHURCH', 'PLEASANT', 'PARK', 'OAK', 'MAPLE', 'PINE', 'WATER', 'CENTER',
  'MILL', 'RIVER', 'BRIDGE', 'UNION', 'SPRING', 'WASHINGTON', 'CEDAR', 'NORTH', 'SOUTH', 'WEST', 'EAST',
  'LAKE', 'POND', 'HILL', 'RIDGE', 'FOREST', 'MEADOW', 'ORCHARD', 'ACADEMY', 'DEPOT', 'FRONT', 'GROVE',
  'HARBOR', 'BAY', 'SHORE', 'BEACH', 'COUNTY', 'STATE', 'PORTLAND', 'BANGOR', 'AUGUSTA', 'BATH', 'BOSTON',
  'POST', 'FERRY', 'FALLS', 'BROOK', 'MOUNTAIN', 'VIEW', 'SUNSET', 'BIRCH', 'ASH', 'WILLOW', 'SPRUCE',
  'HEMLOCK', 'CHESTNUT', 'WALNUT', 'BEECH', 'HICKORY', 'CHERRY', 'LINCOLN', 'FRANKLIN', 'JEFFERSON',
  'MADISON', 'MONROE', 'ADAMS', 'JACKSON', 'GRANT', 'PROSPECT', 'SUMMER', 'WINTER', 'AUTUMN', 'CROSS',
  'MARKET', 'COMMERCIAL', 'MECHANIC', 'FOUNDRY', 'TANNERY', 'WHARF', 'OCEAN', 'ISLAND', 'CAPE', 'POINT',
];
export const STREET_SUFFIXES = ['ST', 'RD', 'AVE', 'LN', 'DR', 'WAY', 'CT', 'HWY', 'TER', 'CIR', 'PL'];

// prettier-ignore
export const LAND_TYPES = [
  'HOUSE LOT', 'REAR LAND', 'FIELD', 'MIXED WOOD', 'SOFTWOOD', 'HARDWOOD', 'WASTELAND', 'WATERFRONT',
  'SITE', 'EXCESS FRONTAGE', 'ORCHARD', 'WETLAND', 'ROAD FRONTAGE', 'CONDO COMMON', 'GRAVEL PIT',
];
export const LAND_UNITS = ['ACRES', 'SQUARE FEET', 'FRONT FOOT', 'SITE'];
// prettier-ignore
export const BUILDING_STYLES = [
  'RANCH', 'CAPE', 'COLONIAL', 'SPLIT LEVEL', 'RAISED RANCH', 'CONTEMPORARY', 'MOBILE HOME', 'CONDO',
  'BUNGALOW', 'OLD STYLE', 'GAMBREL', 'SALTBOX', 'VICTORIAN', 'GARRISON', 'DUPLEX', 'LOG',
];
export const EXTERIOR_WALLS = [
  'VINYL',
  'CLAPBOARD',
  'WOOD SHINGLE',
  'ALUMINUM',
  'BRICK',
  'T1-11',
  'ASBESTOS',
];
export const ROOFS = ['ASPHALT SHINGLE', 'METAL', 'SLATE', 'ROLLED', 'WOOD SHINGLE'];
export const HEAT_TYPES = [
  'HOT WATER',
  'FORCED AIR',
  'ELECTRIC',
  'HEAT PUMP',
  'STEAM',
  'RADIANT',
  'WOOD STOVE',
];
export const CONDITIONS = ['POOR', 'FAIR', 'AVERAGE', 'GOOD', 'VERY GOOD', 'EXCELLENT'];
export const FOUNDATIONS = ['CONCRETE', 'FIELDSTONE', 'SLAB', 'PIERS', 'BLOCK'];
export const BASEMENTS = ['FULL', 'PARTIAL', 'NONE', 'CRAWL'];
export const ADDITIONS = [
  'ATTACHED GARAGE',
  'DETACHED GARAGE',
  'OPEN PORCH',
  'ENCLOSED PORCH',
  'DECK',
  'SHED',
  'BARN',
];
export const OCCUPANCIES = [
  'RETAIL STORE',
  'OFFICE',
  'RESTAURANT',
  'WAREHOUSE',
  'GARAGE',
  'APARTMENTS',
  'MOTEL',
];
export const SALE_TYPES = ['LAND + BUILDING', 'LAND ONLY', 'BUILDING ONLY', 'FORECLOSURE', 'FAMILY'];
// prettier-ignore
export const EXEMPTIONS = [
  ['HOM', 'HOMESTEAD', 25000],
  ['VET', 'VETERAN', 6000],
  ['BLD', 'BLIND', 4000],
  ['SOL', 'SOLAR', 12000],
] as const;
export const ZONES = ['RES', 'RURAL', 'VILLAGE', 'COMMERCIAL', 'INDUSTRIAL', 'SHORELAND', 'RESOURCE'];
export const TOPOGRAPHY = ['LEVEL', 'ROLLING', 'STEEP', 'LOW', 'ROCKY'];
export const UTILITIES = ['PUBLIC WATER', 'PUBLIC SEWER', 'DRILLED WELL', 'SEPTIC', 'DUG WELL'];
// prettier-ignore
export const TOWN_ROOTS = [
  'HARRISON', 'BRIDG', 'WINDHAM', 'GORHAM', 'BUX', 'HOLLIS', 'LIMING', 'PARSONS', 'BROWN', 'CORN', 'DENMARK',
  'FRYE', 'LOVELL', 'STONE', 'WATER', 'OX', 'NAPLES', 'CASCO', 'RAYMOND', 'GRAY', 'POLAND', 'MINOT', 'HEBRON',
  'BUCK', 'PARIS', 'NORWAY', 'OTIS', 'GREEN', 'WEST', 'EAST', 'MILL', 'BROOK', 'CHEST', 'WINTER', 'SPRING',
  'MAPLE', 'OAK', 'PINE', 'ASH', 'ELM', 'BIRCH', 'CEDAR', 'ROCK', 'SAND', 'CLAY', 'FAIR', 'GLEN', 'LAKE',
];
export const TOWN_SUFFIXES = [
  'TON',
  'FIELD',
  'VILLE',
  'PORT',
  'FORD',
  'BURG',
  'BORO',
  'WOOD',
  'DALE',
  'MOUTH',
  'HAM',
  'LEY',
];
