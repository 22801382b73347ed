-- The punctuated codes a parcel can be found by (map/lot, account, street number, apartment, book-page),
-- each as search-text.ts codeKey() spells it: a search word such as `R01-0` must start one of them.
-- Stored at import so neither search nor the in-process roll index has to read the full record for them.
alter table properties add column codes text[] not null default '{}';

update properties p
   set codes = array_remove(array_remove(array[
         ltrim(regexp_replace(lower(p.summary->>'MapLot'), '[^a-z0-9]+', '-', 'g'), '-'),
         ltrim(regexp_replace(lower(p.account), '[^a-z0-9]+', '-', 'g'), '-'),
         ltrim(regexp_replace(lower(p.summary->>'StreetNumber'), '[^a-z0-9]+', '-', 'g'), '-'),
         ltrim(regexp_replace(lower(p.summary->>'Apartment'), '[^a-z0-9]+', '-', 'g'), '-'),
         case when coalesce(p.record->>'Book', '') <> '' and coalesce(p.record->>'Page', '') <> ''
              then ltrim(regexp_replace(lower((p.record->>'Book') || '-' || (p.record->>'Page')), '[^a-z0-9]+', '-', 'g'), '-')
         end
       ], null), '');

alter table properties alter column codes set storage main;
