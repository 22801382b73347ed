-- A roll's rows without foreign keys (issue 8, import throughput), as its packed records have had since
-- 0009. Attaching a roll's table made the engine prove every row against both keys of `properties` (to
-- `import_runs` and to `clients`): two scans of the new roll before it could be published, about 0.4 s
-- of a 1,000,000-row roll's import on PostgreSQL and more on PGlite. The client key also needed an index
-- of its own on every roll, an eighteenth build of one constant value.
--
-- Neither key protected anything the importer does not: it creates each roll's tables for its own run,
-- with a check constraint on roll_id, and writes client_id from that run. What the keys did on delete
-- (a client's or a run's rows went with them, row by row, inside the deleting transaction) is now the
-- code's: deleting a client drops its rolls' tables (features/clients), and the sweep drops any roll
-- whose run no longer exists (features/imports/rolls.repository.ts dropAbandonedRolls).
--
-- Dropping the parent's index drops it on every roll's table; dropping the keys reads no rows.

alter table properties drop constraint properties_roll_id_fkey;
alter table properties drop constraint properties_client_id_fkey;
drop index properties_client_idx;
