-- What a published run said besides its errors (issue 45): its warnings (the count, the count per field,
-- the first by line) and the values its mapping left out or changed, as its dry run showed them, so the
-- console's history still shows them after the run. Null for runs from before, and for runs that did not
-- publish (a rejected file's problems come first).
alter table import_runs add column notes jsonb;
