-- How far a publishing run is, as its watchers need it: records read so far say nothing about the share
-- of the file left (the total is known only at the end), so a run also keeps the file's size and the bytes
-- read, and says when every record is written and the roll's indexes are being built (a county's minute
-- or more in which the record count no longer moves). Null for runs from before this migration and for
-- imports that do not report bytes (the command line draws its own bar).
alter table import_runs
  add column file_bytes bigint,
  add column bytes_read bigint,
  add column indexing boolean not null default false;
