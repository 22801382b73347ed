-- Valuation history in a table of its own (issues 45, 46): one line per (town, account, year), the
-- values of the roll published for that year, written in the transaction that publishes a roll
-- (features/imports/rolls.repository.ts activate): the roll's own values under its year, upserted, so
-- re-publishing a roll of the same year replaces them; then the years a file's own ValueHistory gives,
-- upserted likewise. The record answer lists every year but the published roll's own (its history_year),
-- unless its file
-- listed that year (features/properties/properties.repository.ts). Records stop storing the list
-- (record format 3).
-- No foreign key (as a roll's rows, 0012): deleting a client deletes its lines in the same transaction
-- (rolls.repository.ts deleteClientRolls), and publishing checks no key per line.
-- The year a published roll's values are filed under: its tax year, else the year it was published.
alter table import_runs add column history_year integer;
update import_runs set history_year = coalesce(tax_year, extract(year from coalesce(finished_at, started_at))::int)
 where status = 'succeeded';

create table value_history (
  client_id integer not null,
  account text not null,
  year integer not null,
  land_value double precision,
  building_value double precision,
  total_value double precision,
  -- Given by the roll's own ValueHistory (an assessing system's): a line of the published roll's own
  -- year is listed only then (else those values are the record's current ones, not history).
  listed boolean not null,
  primary key (client_id, account, year)
);

-- The history the published rolls hold today, read once from their stored records: the ValueHistory
-- lines each published record stores (record format 2 stores the list first; records stored whole keep
-- it by name; format 1 stored none), the first of a year kept, as listed (a line of the roll's own year
-- can only be its file's: publishing never filed a record's own year in its history); then each
-- record's values under its roll's history_year where its
-- history has no line of that year. A record's total is its Taxable plus its TotalExemption (the
-- assessment, outbuildings and extra features included), or with no Taxable its land plus building
-- (features/imports/value-history.ts recordValues). Positions are those of formats 1 and 2
-- (record-codec.ts): LandValue, TotalBuildingValue, TotalExemption, Taxable at 10–13 in format 1,
-- 11–14 in format 2.
create temporary table value_history_published on commit drop as
  select c.id as client_id,
         i.history_year as year,
         p.account,
         coalesce(r.record, p.record)::jsonb as record
    from clients c
    join import_runs i on i.id = c.active_roll_id
    join properties p on p.roll_id = c.active_roll_id
    left join property_records r on r.roll_id = p.roll_id and r.account = p.account;

insert into value_history (client_id, account, year, land_value, building_value, total_value, listed)
select distinct on (client_id, account, year) client_id, account, year, land, building, total, true
  from (select client_id, account, n, (h ->> 0)::int as year, (h ->> 1)::float8 as land,
               (h ->> 2)::float8 as building, (h ->> 3)::float8 as total
          from value_history_published,
               jsonb_array_elements(case when jsonb_typeof(record) = 'array' and record ->> 0 = '2'
                                         then record -> 1 else '[]' end) with ordinality as l(h, n)
        union all
        select client_id, account, n, (h ->> 'Year')::int, (h ->> 'LandValue')::float8,
               (h ->> 'BuildingValue')::float8, (h ->> 'TotalValue')::float8
          from value_history_published,
               jsonb_array_elements(case when jsonb_typeof(record -> 'ValueHistory') = 'array'
                                         then record -> 'ValueHistory' else '[]' end) with ordinality as l(h, n)
       ) lines
 order by client_id, account, year, n;

insert into value_history (client_id, account, year, land_value, building_value, total_value, listed)
select client_id, account, year, land, building,
       case when taxable is not null then taxable + coalesce(exempt, 0)
            when land is not null or building is not null then coalesce(land, 0) + coalesce(building, 0)
       end,
       false
  from (select client_id, account, year,
               (case when v is null then record ->> 'LandValue' else record ->> (9 + v) end)::float8 as land,
               (case when v is null then record ->> 'TotalBuildingValue' else record ->> (10 + v) end)::float8
                 as building,
               (case when v is null then record ->> 'TotalExemption' else record ->> (11 + v) end)::float8
                 as exempt,
               (case when v is null then record ->> 'Taxable' else record ->> (12 + v) end)::float8 as taxable
          from (select *, case when jsonb_typeof(record) = 'array' then (record ->> 0)::int end as v
                  from value_history_published) s) x
 where land is not null or building is not null or taxable is not null
on conflict do nothing;

