-- Each parcel's full record in a table of its own, packed (issue 8, import throughput; see
-- features/properties/record-codec.ts). A packed record is about 1 kB, under the size at which the engine
-- moves a value out of line (about 2 kB a row), so in `properties` it would stay in the heap and double
-- the table every search, count and index build scans. Here it costs its own heap and primary key, and
-- nothing else: no TOAST chunks and their index, as the 3 kB records had.
--
-- Like `properties` (0006) it is LIST-partitioned by roll_id: an import loads a roll's records into a
-- bare table `property_records_r{rollId}`, builds its primary key in one pass and attaches it, and the
-- table is dropped with its roll. No foreign keys: the roll's table goes with the roll's
-- (features/imports/rolls.repository.ts), and checking them would cost every attach a scan.
--
-- Rolls imported before this migration keep their records in `properties.record` (whole JSON); newer rows
-- leave that column empty. The property page reads whichever holds the record.
create table property_records (
  roll_id integer not null,
  account text not null,
  record text not null,
  primary key (roll_id, account)
) partition by list (roll_id);

-- Never compressed: a packed record stays in its row as it is, and the rare one too large for a row goes
-- out of line whole. Compressing would cost an import more than the disk it saves (on PGlite, whose only
-- method is pglz, several times more). Each roll's table copies this setting.
alter table property_records alter column record set storage external;

alter table properties alter column record drop not null;
