-- A parcel layer may be keyed by MassGIS's LOC_ID (issue 45): the Level 3 assessor table gives it to
-- every record, condominium units included, so a MassGIS town's polygons join whole.
alter table parcel_layers drop constraint parcel_layers_key_field_check;
alter table parcel_layers add constraint parcel_layers_key_field_check
  check (key_field in ('MapLot', 'Account', 'LocId'));
