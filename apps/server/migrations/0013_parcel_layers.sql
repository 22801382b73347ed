-- Where parcels are (issue 40): a town's parcel layer. It belongs to the client, not to a roll: it
-- survives every roll published after it and joins the published roll by key when it is read
-- (features/parcels). Several records may share one shape (condominium units share their parcel's
-- map/lot), so a shape is stored once per key, never per record.
--
-- A new import inserts a new layer row and deletes the old one (its shapes go with it) in the same
-- transaction: readers see the old layer or the new one, and an in-process index is keyed by the
-- layer's id, so it can never be stale.

create table parcel_layers (
  id           integer generated always as identity primary key,
  client_id    integer not null unique references clients(id) on delete cascade,
  key_field    text not null check (key_field in ('MapLot', 'Account')),
  file_name    text not null,
  shape_count  integer not null,
  imported_at  timestamptz not null default now()
);

create table parcel_shapes (
  layer_id  integer not null references parcel_layers(id) on delete cascade,
  shape_no  integer not null,
  -- The key as the file spells it, and as compared (features/properties/search-text.ts codeKey).
  key       text not null,
  key_code  text not null,
  -- A GeoJSON MultiPolygon's coordinates (longitude, latitude; WGS 84), rings repaired at import.
  coordinates text not null,
  primary key (layer_id, shape_no)
);
