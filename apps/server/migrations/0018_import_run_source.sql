-- What a published roll was read from (issue 39): the built-in format or the mapping file, and the names
-- of the files given, so that a roll can be traced back to the town's export it came from. A mapping
-- file's content is kept too: its name alone cannot say what it said on the day. Runs from before this
-- migration read one file in the portal's own format: that file is their source.
alter table import_runs
  add column source_format text,
  add column source_mapping text,
  add column source_mapping_json jsonb,
  add column source_files jsonb not null default '[]'::jsonb;
update import_runs set source_files = jsonb_build_array(file_name);
