-- A roll's full records as `text` instead of `json` (issue 8, import throughput). The importer writes
-- each record with JSON.stringify after checking it against the contract, so the database's own check
-- that it is JSON repeated work already done: on the embedded engine (WebAssembly) that check was about
-- 55 µs of a 3 kB record, the largest single cost of loading a roll; on a PostgreSQL server about 20 µs.
-- Nothing reads inside a record in SQL (0007); the property page sends the text as stored.
-- Rolls already published are rewritten once by this statement.
alter table properties alter column record type text using record::text;
