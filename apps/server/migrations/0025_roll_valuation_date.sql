-- The date a roll's values are as of (issue 48): "values as of 1/1/2013, fiscal year 2014". The provider
-- gives it when publishing (portal import --valuation-date, the console upload's valuationDate field); a
-- fiscal year given with it is kept in tax_year (0017), where the records' own tax year otherwise goes.
-- Null where nobody said: the public pages then date the roll by the day it was published only.
alter table import_runs add column valuation_date date;
