-- A roll's full records as `json` (text, checked to be JSON) instead of `jsonb` (issue 8, import
-- throughput). Nothing queries inside a record: the property page returns it whole (`record::text`), and
-- search, filters, sorts and the CSV export read the narrow columns and `summary`. Parsing each record
-- into jsonb's binary form was most of the database's share of an import (about 80 µs of a 3 kB record
-- on this 2-core machine), and reading it back turned the binary form into text again. `json` keeps the
-- text as the import wrote it, so the property page's answer is that text, unchanged.
alter table properties alter column record type json using record::json;
