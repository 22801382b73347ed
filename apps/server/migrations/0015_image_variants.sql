-- Smaller copies of stored images (GET /api/files/image/{file}?w=…), kept beside their original so the
-- original is read and scaled once per width, by whichever node is asked first, and every other node
-- serves the copy (issue 37: eight clients asking for a 40-megapixel banner's phone copy each read the
-- whole original from the database, and on the embedded engine those reads held up every other query).
-- A copy goes with its original (on delete cascade): replacing or deleting a banner removes them.

create table stored_file_variants (
  name text not null references stored_files (name) on delete cascade,
  width integer not null,
  content_type text not null,
  byte_size integer not null,
  bytes bytea not null,
  created_at timestamptz not null default now(),
  primary key (name, width)
);

-- Originals are served in pieces (substring of the bytes, one short query each): stored uncompressed
-- out of line, a piece is read without reading or decompressing what comes before it. PNG and JPEG do
-- not compress further anyway.
alter table stored_files alter column bytes set storage external;
alter table stored_file_variants alter column bytes set storage external;
