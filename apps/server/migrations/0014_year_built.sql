-- Year built (issue 36): the sort YearBuilt reads year_built, the newest of the parcel's residences and
-- commercial buildings; the filter building.yearBuilt reads building_years, every one of their years
-- (a parcel matches when any of them lies in the range). Both are computed by the importer
-- (features/search/search-columns.ts). Rolls published before this migration hold no years (null and
-- an empty list) until their town publishes again: adding the columns rewrites no roll.
alter table properties
  add column year_built integer,
  add column building_years integer[] not null default '{}';

-- Storage main, as every other search column (0004): kept inline beside the sort keys.
alter table properties
  alter column building_years set storage main;

-- The sort indexes, keyed on the column with roll_id included (as 0011's): built on every published
-- roll's table now (empty columns: quick), and by the importer on each new roll.
create index properties_yearbuilt_idx on properties (year_built, account_key) include (roll_id);
create index properties_yearbuilt_desc_idx on properties (year_built desc nulls last, account_key) include (roll_id);
