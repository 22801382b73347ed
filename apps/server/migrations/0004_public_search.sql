-- Public search (issue 3): keep the rows that search, filter, sort and count read narrow, and give every
-- sort an index in both directions.

-- A roll's full records are read one at a time (the property page), never by a search. Moving them out
-- of line (TOAST) once a row passes 2 kB keeps the heap several times smaller, so counts and filtered
-- scans touch far fewer pages. Every other column stays inline (storage main): with a low target the
-- toaster would otherwise move the small sort keys and lists out of line too.
alter table properties set (toast_tuple_target = 128);
alter table properties
  alter column account set storage main,
  alter column account_key set storage main,
  alter column summary set storage main,
  alter column map_lot_key set storage main,
  alter column name_key set storage main,
  alter column location_key set storage main,
  alter column land_types set storage main,
  alter column building_styles set storage main,
  alter column search_doc set storage main;

-- Descending sorts put empty values last too, and break ties on account ascending: an index of exactly
-- that order per column serves the first page without sorting the roll.
create index properties_maplot_desc_idx on properties (roll_id, map_lot_key desc nulls last, account_key);
create index properties_name_desc_idx on properties (roll_id, name_key desc nulls last, account_key);
create index properties_location_desc_idx on properties (roll_id, location_key desc nulls last, account_key);
create index properties_buildingland_desc_idx on properties (roll_id, building_land desc nulls last, account_key);
create index properties_acres_desc_idx on properties (roll_id, total_acres desc nulls last, account_key);
create index properties_saledate_desc_idx on properties (roll_id, sale_date desc nulls last, account_key);
create index properties_saleprice_desc_idx on properties (roll_id, sale_price desc nulls last, account_key);
