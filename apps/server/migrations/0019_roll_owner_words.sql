-- Which rolls carry owner_words (0016). Those published before hold none, so a town whose owner names
-- stopped being searchable would still be found by name in them: turning names off (or their search)
-- is refused for such a roll until the town publishes again (clients.admin.service.ts). Existing runs
-- are marked false; every run created from now on true (the importer fills owner_words for every row).
alter table import_runs add column owner_words boolean not null default false;
alter table import_runs alter column owner_words set default true;
