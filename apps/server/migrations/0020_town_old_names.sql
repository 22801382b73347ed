-- Old town names are bounded (features/clients/town-names.ts): when a town took its name by a rename
-- (null: the name it was created with), and when it left each old name, so a name held only briefly is
-- released and a town keeps only its latest few. Existing old names count as left now.
alter table clients add column city_since timestamptz;
alter table client_city_aliases add column left_at timestamptz not null default now();
