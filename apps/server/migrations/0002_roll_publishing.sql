-- At most one import runs per client at a time, across every API node: the run's row is the lock. Two
-- uploads racing past the "is one running?" check cannot both insert a validating/importing row.
create unique index import_runs_one_running_uq on import_runs (client_id)
  where status in ('validating', 'importing');
