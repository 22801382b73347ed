/*
 * Words that name the same thing in an address: the street suffixes of USPS Publication 28, appendix C1
 * (https://pe.usps.com/text/pub28/28apc_002.htm), and ordinal numbers with their words. People type
 * "212 Third Street" where the roll says "212 THIRD ST", and "3rd" where it says "THIRD".
 *
 * Each line is one class: its primary name, the Postal Service standard abbreviation, then the other
 * commonly used forms. Local additions to C1 are marked. search-text.ts folds every indexed and every
 * typed word through these classes (canonicalWord, queryWord), so search and type-ahead agree.
 */
const CLASSES = `
alley aly allee ally
anex anx annex annx
arcade arc
avenue ave av aven avenu avn avnue
bayou byu bayoo
beach bch
bend bnd
bluff blf bluf
bluffs blfs
bottom btm bot bottm
boulevard blvd boul boulv
branch br brnch
bridge brg brdge
brook brk
brooks brks
burg bg
burgs bgs
bypass byp bypa bypas byps
camp cp cmp
canyon cyn canyn cnyn
cape cpe
causeway cswy causwa
center ctr cen cent centr centre cnter cntr
centers ctrs
circle cir circ circl crcl crcle
circles cirs
cliff clf
cliffs clfs
club clb
common cmn
commons cmns
corner cor
corners cors
course crse
court ct
courts cts
cove cv
coves cvs
creek crk
crescent cres crsent crsnt
crest crst
crossing xing crssng
crossroad xrd
crossroads xrds
curve curv
dale dl
dam dm
divide dv div dvd
drive dr driv drv
drives drs
estate est
estates ests
expressway expy exp expr express expw
extension ext extn extnsn
extensions exts
falls fls
ferry fry frry
field fld
fields flds
flat flt
flats flts
ford frd
fords frds
forest frst forests
forge frg forg
forges frgs
fork frk
forks frks
fort ft frt
freeway fwy freewy frway frwy
garden gdn gardn grden grdn
gardens gdns grdns
gateway gtwy gatewy gatway gtway
glen gln
glens glns
green grn
greens grns
grove grv grov
groves grvs
harbor hbr harb harbr hrbor
harbors hbrs
haven hvn
heights hts ht
highway hwy highwy hiway hiwy hway
hill hl
hills hls
hollow holw hllw hollows holws
inlet inlt
island is islnd
islands iss islnds
isle isle isles
junction jct jction jctn junctn juncton
junctions jcts jctns
key ky
keys kys
knoll knl knol
knolls knls
lake lk
lakes lks
landing lndg lndng
lane ln
light lgt
lights lgts
loaf lf
lock lck
locks lcks
lodge ldg ldge lodg
loop loop loops
manor mnr
manors mnrs
meadow mdw
meadows mdws medows
mill ml
mills mls
mission msn missn mssn
motorway mtwy
mount mt mnt
mountain mtn mntain mntn mountin mtin
mountains mtns mntns
neck nck
orchard orch orchrd
oval oval ovl
overpass opas
park park prk pk
parks park
parkway pkwy parkwy pkway pky
parkways pkwy pkwys
passage psge
path path paths
pike pike pikes
pine pne
pines pnes
place pl
plain pln
plains plns
plaza plz plza
point pt
points pts
port prt
ports prts
prairie pr prr
radial radl rad radiel
ranch rnch ranches rnchs
rapid rpd
rapids rpds
rest rst
ridge rdg rdge
ridges rdgs
river riv rvr rivr
road rd
roads rds
route rte
shoal shl
shoals shls
shore shr shoar
shores shrs shoars
skyway skwy
spring spg spng sprng
springs spgs spngs sprngs
spurs spur
square sq sqr sqre squ
squares sqs sqrs
station sta statn stn
stravenue stra strav straven stravn strvn strvnue
stream strm streme
street st strt str
streets sts
summit smt sumit sumitt
terrace ter terr
throughway trwy
trace trce traces
track trak tracks trk trks
trafficway trfy
trail trl trails trls
trailer trlr trlrs
tunnel tunl tunel tunls tunnels tunnl
turnpike tpke trnpk turnpk
underpass upas
union un
unions uns
valley vly vally vlly
valleys vlys
viaduct via vdct viadct
view vw
views vws
village vlg vill villag villg villiage
villages vlgs
ville vl
vista vis vist vst vsta
walks walk
way way wy
well wl
wells wls
first 1st
second 2nd
third 3rd
fourth 4th
fifth 5th
sixth 6th
seventh 7th
eighth 8th
ninth 9th
tenth 10th
eleventh 11th
twelfth 12th
thirteenth 13th
fourteenth 14th
fifteenth 15th
sixteenth 16th
seventeenth 17th
eighteenth 18th
nineteenth 19th
twentieth 20th
thirtieth 30th
fortieth 40th
fiftieth 50th
sixtieth 60th
seventieth 70th
eightieth 80th
ninetieth 90th
`;
// Local additions to C1: `pk` for park (Cambridge's roll writes "CANAL PK"); the ordinal lines.

/** Every member of every class, to its class's primary name; a primary name is its own, whatever else lists it. */
const PRIMARY_OF = (() => {
  const classes = CLASSES.trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
  const byWord = new Map<string, string>();
  for (const [primary] of classes) byWord.set(primary!, primary!);
  for (const [primary, ...others] of classes)
    for (const w of others) if (!byWord.has(w)) byWord.set(w, primary!);
  return byWord;
})();

/**
 * The one word each class member is indexed as: its class's primary name (ST as `street`, THIRD as
 * `third`, PK as `park`). One word for one, so the index holds no more words than the roll wrote.
 */
export function canonicalWord(word: string): string {
  return PRIMARY_OF.get(word) ?? word;
}

/**
 * A typed word as the index holds it. `exact` (a finished word of a type-ahead entry, matched whole):
 * its primary name. Otherwise (a prefix): the word itself when it begins the primary name (`st`, `stre`
 * and `ave` match `street` and `avenue` as typed), else the primary name (`rd` → `road`, `3rd` →
 * `third`, `pk` → `park`). Words in no class are unchanged.
 */
export function queryWord(word: string, exact = false): string {
  const primary = PRIMARY_OF.get(word);
  if (primary === undefined) return word;
  return exact || !primary.startsWith(word) ? primary : word;
}

/** A partly typed word is read as at most this many other words (more: it is too short to tell). */
const MAX_READINGS = 3;

/**
 * What a partly typed word may also be, besides a prefix of itself: the primary names of the classes
 * whose abbreviations it begins when it begins neither their primary name nor is a member itself
 * (`3r` → `third`, `pkw` → `parkway`, `blv` → `boulevard`, `hw` → `highway`). A word without a letter
 * (`10`, a house number, begins `10th`) and one that begins too many classes read as themselves only.
 * Search and type-ahead match either (`hw` still finds HWANG).
 */
export function halfTypedReadings(prefix: string): string[] {
  return READINGS_OF.get(prefix) ?? [];
}

/** Every prefix that halfTypedReadings reads as other words, and those words: worked out once. */
const READINGS_OF = (() => {
  const found = new Map<string, Set<string>>();
  for (const [word, primary] of PRIMARY_OF)
    for (let k = 2; k <= word.length; k++) {
      const prefix = word.slice(0, k);
      if (!/[a-z]/.test(prefix) || PRIMARY_OF.has(prefix) || primary.startsWith(prefix)) continue;
      if (!found.has(prefix)) found.set(prefix, new Set());
      found.get(prefix)!.add(primary);
    }
  const out = new Map<string, string[]>();
  for (const [prefix, primaries] of found) {
    // A reading that another begins adds nothing to a prefix match (`parkways` after `parkway`).
    const all = [...primaries];
    const readings = all.filter((r) => !all.some((o) => o !== r && r.startsWith(o)));
    if (readings.length <= MAX_READINGS) out.set(prefix, readings);
  }
  return out;
})();

/**
 * Words that introduce an apartment (USPS Publication 28, appendix C2, those used for homes): a query
 * names the unit by what follows them (search-text.ts queryParts).
 */
const UNIT_WORDS = new Set(['apartment', 'apt', 'unit', 'suite', 'ste']);

export function isUnitWord(word: string): boolean {
  return UNIT_WORDS.has(word);
}

/** Every class member that is indexed as another word, and that word: what re-indexing a roll needs. */
export function canonicalWords(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [word, primary] of PRIMARY_OF) if (word !== primary) out[word] = primary;
  return out;
}
