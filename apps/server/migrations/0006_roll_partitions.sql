-- Each roll in its own table, attached to `properties` as a LIST partition on roll_id (issue 8, import
-- throughput). An import loads its rows into a bare table (no index, no foreign key to check row by row),
-- then attaching it builds the indexes declared here in one pass each, and replacing or abandoning a
-- roll is a DROP TABLE instead of a million-row DELETE. Queries keep reading `properties` with
-- `roll_id = …`; the planner prunes them to the roll's own partition (and its own word index).
--
-- The rows written before this migration stay in one table attached as the DEFAULT partition and leave
-- with their rolls (DELETE, as before). A check constraint bounds its roll ids so that attaching a new
-- roll never has to scan it to prove it holds none of that roll's rows. On a fresh database it is empty
-- and simply dropped.

alter table properties rename to properties_legacy;
alter table properties_legacy rename constraint properties_pkey to properties_legacy_pkey;
alter table properties_legacy rename constraint properties_roll_id_fkey to properties_legacy_roll_id_fkey;
alter table properties_legacy rename constraint properties_client_id_fkey to properties_legacy_client_id_fkey;
alter index properties_search_idx rename to properties_legacy_search_idx;
alter index properties_maplot_idx rename to properties_legacy_maplot_idx;
alter index properties_name_idx rename to properties_legacy_name_idx;
alter index properties_location_idx rename to properties_legacy_location_idx;
alter index properties_buildingland_idx rename to properties_legacy_buildingland_idx;
alter index properties_acres_idx rename to properties_legacy_acres_idx;
alter index properties_saledate_idx rename to properties_legacy_saledate_idx;
alter index properties_saleprice_idx rename to properties_legacy_saleprice_idx;
alter index properties_client_idx rename to properties_legacy_client_idx;
alter index properties_maplot_desc_idx rename to properties_legacy_maplot_desc_idx;
alter index properties_name_desc_idx rename to properties_legacy_name_desc_idx;
alter index properties_location_desc_idx rename to properties_legacy_location_desc_idx;
alter index properties_buildingland_desc_idx rename to properties_legacy_buildingland_desc_idx;
alter index properties_acres_desc_idx rename to properties_legacy_acres_desc_idx;
alter index properties_saledate_desc_idx rename to properties_legacy_saledate_desc_idx;
alter index properties_saleprice_desc_idx rename to properties_legacy_saleprice_desc_idx;

-- Same columns, collations, defaults and storage (0004: everything but `record` inline). A partitioned
-- table has no heap, so toast_tuple_target is set on each roll's table when the import creates it.
create table properties (like properties_legacy including defaults including storage)
  partition by list (roll_id);

alter table properties add constraint properties_pkey primary key (roll_id, account);
alter table properties add constraint properties_roll_id_fkey
  foreign key (roll_id) references import_runs(id) on delete cascade;
alter table properties add constraint properties_client_id_fkey
  foreign key (client_id) references clients(id) on delete cascade;

-- The indexes of 0001 and 0004, declared once for every roll.
create index properties_search_idx on properties using gin (search_doc);
create index properties_maplot_idx on properties (roll_id, map_lot_key, account_key);
create index properties_name_idx on properties (roll_id, name_key, account_key);
create index properties_location_idx on properties (roll_id, location_key, account_key);
create index properties_buildingland_idx on properties (roll_id, building_land, account_key);
create index properties_acres_idx on properties (roll_id, total_acres, account_key);
create index properties_saledate_idx on properties (roll_id, sale_date, account_key);
create index properties_saleprice_idx on properties (roll_id, sale_price, account_key);
create index properties_client_idx on properties (client_id);
create index properties_maplot_desc_idx on properties (roll_id, map_lot_key desc nulls last, account_key);
create index properties_name_desc_idx on properties (roll_id, name_key desc nulls last, account_key);
create index properties_location_desc_idx on properties (roll_id, location_key desc nulls last, account_key);
create index properties_buildingland_desc_idx on properties (roll_id, building_land desc nulls last, account_key);
create index properties_acres_desc_idx on properties (roll_id, total_acres desc nulls last, account_key);
create index properties_saledate_desc_idx on properties (roll_id, sale_date desc nulls last, account_key);
create index properties_saleprice_desc_idx on properties (roll_id, sale_price desc nulls last, account_key);

do $$
declare
  last_roll integer := coalesce((select max(id) from import_runs), 0);
begin
  if exists (select 1 from properties_legacy) then
    execute format('alter table properties_legacy add constraint properties_legacy_rolls check (roll_id <= %s)',
                   last_roll);
    -- Its indexes and constraints match the ones above, so attaching adopts them instead of building new ones.
    alter table properties attach partition properties_legacy default;
  else
    drop table properties_legacy;
  end if;
end $$;
