/** The API's own description, shown at /api/docs. Search semantics are documented here for API users. */
export const API_DOCS_DESCRIPTION = `
Public property-tax records of the municipalities hosted on this portal, and the calls their administrators use.

**Errors.** Every error is JSON: \`{ statusCode, code, message, error, fields? }\`. \`code\` is stable
(\`validation_failed\`, \`not_found\`, \`unauthorized\`, \`forbidden\`, \`too_many_requests\`, …); \`fields\` names
each offending input (\`filters.sale.price.start\`, \`sort.0.sortby\`, \`page\`, …). Unknown paths under \`/api\` are
JSON 404s.

**States.** Wherever a state appears in a path or query, the full name (\`Maine\`) and the USPS abbreviation
(\`ME\`) are both accepted, in any case.

**Authentication.** \`POST /api/login\` returns an \`accessToken\`; send it as \`Authorization: Bearer <token>\`.

**Visibility.** Inactive towns do not exist for the public: every public call answers 404 for them. Test towns
(IsProduction false) answer by URL but are not listed by \`/api/states\` or \`/api/{state}/cities\`. Searches and
property pages read only the town's published roll.

**Caching.** Public GETs send \`ETag\` (and \`Last-Modified\` where the answer comes from the published roll) with
\`Cache-Control: no-cache\`, and answer \`304 Not Modified\` to a matching \`If-None-Match\` or
\`If-Modified-Since\`. A new roll or an edited town changes the tag. Search responses carry \`LastUpdated\`, when the
roll was published.

## Search semantics

\`POST /api/propertysearch/{clientId}?query=&page=&pagesize=\` with body \`{ filters, sort }\` (the provider
console's \`POST /api/search/{id}\` answers the same). The CSV export and type-ahead use the same matching.

**query** (at most 200 characters). Case and accents are ignored (\`josé\` = \`JOSE\`). The text is split into words
at spaces and at \`, ; / & + ( ) [ ] { } |\`; other punctuation inside a word is ignored for matching. Every word
must match, as the *start* of a word (\`smi\` finds SMITH, not BLACKSMITH), one of: any owner's name (unless the
owners are withheld, see below), the street
address (number, apartment, street name), the map/lot, the account, the book or page. So \`smith main\` finds Smith
on Main Street and \`12 elm\` finds 12 Elm St. A street suffix matches in any of its USPS spellings and an ordinal
as a number or a word: \`212 Third Street\`, \`212 3rd St\` and \`212 third st\` all find 212 THIRD ST, \`4 canal park\`
finds 4 CANAL PK; one being typed matches as it becomes one (\`212 3r\` finds 212 THIRD ST, \`pkw\` PKWY). A unit word followed by another word is left out (\`303 third st unit 212\`). Punctuation in names and map/lots works typed or left out:
\`O'BRIEN\`, \`obrien\` and \`brien\` all find O'Brien; \`R01-002-A\`, \`r01.002.a\` and \`r01002a\` all find
R01-002-A. A word that joins digits to other characters with punctuation (\`R01-0\`, \`12-14\`, \`1234-56\`) must
also *start* the map/lot, account, street number, apartment or book-page as typed (any punctuation counts as
the same separator): \`R01-0\` finds R01-002 and R01-010 but not R010-005. Quotes, \`%\`, \`*\`, \`&\`, \`|\` and
other SQL or pattern characters have no special meaning. A query with no letter or digit at all (only
punctuation) is a 400; more than 12 words is a 400; an empty or blank query matches every parcel.

**filters** (every part optional; \`""\`, \`null\`, \`[]\` and \`0\` mean "no filter", as the original web form
sends them). Numbers may be JSON numbers or text such as \`"1.5"\`, \`"1,000"\`, \`" 2 "\`; anything else, a negative
number, a number over 10^12 (\`1e309\` included) or a start past its end is a 400 naming the field. Ranges are
inclusive.
- \`sale.price\`, \`sale.date\` (\`YYYY-MM-DD\`): on the parcel's last sale (the latest dated one); parcels with no
  sale do not match.
- \`land.area\` (acres): on TotalAcres. \`land.type\`: any land line whose LandDescription is one of the listed
  types (the choices are \`GET /api/landbuilding/{clientId}\`'s \`landType\`).
- \`building.area\`: the residential living area (sum of the residential buildings' Area).
  \`building.style\`: any residential building whose BuildingType is one of the listed styles (\`buildingStyle\`).
- \`building.bedrooms\`, \`building.bathrooms\`: at least that many over the residential buildings; a half bath
  counts one half (2 full + 1 half = 2.5).
- \`building.ownership\`: \`["residential"]\` has a residential building, \`["commercial"]\` has a commercial
  building, both: either.
- \`building.yearBuilt\` (\`{ "start": 1950, "end": 1979 }\`, either end may be empty): any of the parcel's
  residential or commercial buildings was built in that range (YearBuilt).

**sort**: \`{ "sortby": "Name", "descending": false }\` or an ordered list of them (first = highest priority);
\`sortby\` is one of MapLot, Name (first owner; Location where the town withholds owner names), Location, BuildingLand (building + land value), Acres, SaleDate,
SalePrice, YearBuilt (the newest of the parcel's residential and commercial buildings); any other value is a 400. A sort with an empty \`sortby\` means none. Default: Name ascending.
Map/lot, name and location sort the way people read them: numbers inside as numbers (\`2-10\` before \`10-1\`,
\`9 Main St\` before \`10 Main St\`), and location by street name, then number, then apartment. Empty values sort
last in both directions. Ties break on the account (in natural order, ascending) so pages never overlap or skip.

**Paging**: \`page\` counts from 1; \`pagesize\` defaults to 50, at most 500. A page past the end is an empty list with
the right totals. \`Pages\` = ceil(TotalRecords / PageSize). Results of up to 5,000 parcels are counted exactly.
Past that, \`TotalRecords\` of an early page is the database's estimate and \`TotalIsEstimate\` is true (counting
hundreds of thousands of matches for every keystroke would make every search slow); asking for a page beyond
the first 5,000 rows counts exactly.

**Results** carry each parcel's summary, plus \`YearBuilt\` (the newest of its residential and commercial
buildings, the YearBuilt sort's value; null when none has a year, and for rolls published before year built was
indexed) and \`BuildingStyles\` (its residential buildings' BuildingType, distinct and sorted, the
\`building.style\` filter's values; empty when none).

**CSV export**: \`GET /api/propertysearch/{clientId}/export.csv?query=&filters=&sort=\` takes the same query, and
\`filters\` and \`sort\` as the same JSON, URL-encoded. It answers the whole result (at most 50,000 rows) in sort
order. Its last two columns, Year Built and Style (styles separated by \`; \`), are always there, empty where the
roll has no value.

**Type-ahead**: \`GET /api/suggest/{clientId}?q=\` gives up to 10 owner names, addresses and map/lots. Words
already followed by a space match whole (\`12 ma\` is number 12, not 120); the word being typed is a prefix.

**Owner privacy**: a record whose \`SuppressOwner\` is true, and every record of a town whose client record says
\`PublishOwnerNames: false\`, is served without owners (names and mailing addresses) on every public call (record,
results, CSV, type-ahead, abutters), with \`SuppressOwner: true\` in the record and without the party of a sale who
is a current owner; its owners' names do not match a search. Where \`OwnerNameSearch\` is false, names are shown but
no search or type-ahead matches them.
`;
