-- How many records a run is expected to hold (issue 48): the count of the preview the provider
-- confirmed, so a run's progress reads "N of 27,528 records" from its first record rather than only
-- the share of the file read. Null for runs that were not previewed (the command line, older runs).
alter table import_runs add column expected_records integer;
