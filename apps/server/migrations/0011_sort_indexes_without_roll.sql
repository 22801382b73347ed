-- The sort B-trees with roll_id last, as an included column, instead of first (issue 8, import throughput
-- on the PostgreSQL server). Since 0006 every roll has a table of its own, where roll_id is one constant:
-- as an index's first key it made every comparison of a build fall through to the next key (the server's
-- sort abbreviates the first key's values, and a constant abbreviates to nothing). Keyed on the sort
-- column itself, a 1,000,000-row roll's fourteen sort indexes build in about 16 s of CPU instead of 21
-- on PostgreSQL; they were the longer of an import's two build queues, so the indexing phase shortens by
-- about 3 s (that roll's import: 52–55 → 45–47 s; docs/decisions/0013). PGlite gains less, if at all.
--
-- Queries are unchanged: they name roll_id, which prunes them to the roll's own table, whose index then
-- gives the ORDER BY directly. They still filter on roll_id within that table, and the included column
-- answers it from the index: a count over a filter's range stays an index-only scan. The primary keys
-- keep roll_id first (a partitioned table's unique keys must hold the partition key). The legacy DEFAULT
-- partition of 0006, present only where rolls predate it, may hold several rolls: there a sorted page now
-- walks past the other rolls' entries, until those rolls are replaced.
--
-- Dropping and re-creating the parent's indexes rebuilds them on every published roll's table, once: a
-- provider with a county and hundreds of towns should expect a start of a few minutes after upgrading.

drop index properties_maplot_idx, properties_name_idx, properties_location_idx,
  properties_buildingland_idx, properties_acres_idx, properties_saledate_idx, properties_saleprice_idx,
  properties_maplot_desc_idx, properties_name_desc_idx, properties_location_desc_idx,
  properties_buildingland_desc_idx, properties_acres_desc_idx, properties_saledate_desc_idx,
  properties_saleprice_desc_idx;

create index properties_maplot_idx on properties (map_lot_key, account_key) include (roll_id);
create index properties_name_idx on properties (name_key, account_key) include (roll_id);
create index properties_location_idx on properties (location_key, account_key) include (roll_id);
create index properties_buildingland_idx on properties (building_land, account_key) include (roll_id);
create index properties_acres_idx on properties (total_acres, account_key) include (roll_id);
create index properties_saledate_idx on properties (sale_date, account_key) include (roll_id);
create index properties_saleprice_idx on properties (sale_price, account_key) include (roll_id);
create index properties_maplot_desc_idx on properties (map_lot_key desc nulls last, account_key) include (roll_id);
create index properties_name_desc_idx on properties (name_key desc nulls last, account_key) include (roll_id);
create index properties_location_desc_idx on properties (location_key desc nulls last, account_key) include (roll_id);
create index properties_buildingland_desc_idx on properties (building_land desc nulls last, account_key) include (roll_id);
create index properties_acres_desc_idx on properties (total_acres desc nulls last, account_key) include (roll_id);
create index properties_saledate_desc_idx on properties (sale_date desc nulls last, account_key) include (roll_id);
create index properties_saleprice_desc_idx on properties (sale_price desc nulls last, account_key) include (roll_id);
