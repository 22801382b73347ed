-- A roll's tax year (issue 39, History): the newest TaxYear its records carry, recorded when it is
-- published. When the next roll replaces it, each account's values from this roll are added to its
-- ValueHistory under this year (or, for a roll whose records carry no tax year, the year it was
-- published): features/imports/rolls.repository.ts carryValueHistory. Null for rolls published before.
alter table import_runs add column tax_year integer;
