-- Owner privacy (issue 39). Each town decides whether owner names and mailing addresses are published
-- (publish_owner_names: Maine towns that have not voted to publish owners turn it off) and whether text
-- search matches owner names (owner_name_search); both default on, as every town published them so far.
alter table clients
  add column publish_owner_names boolean not null default true,
  add column owner_name_search boolean not null default true;

-- The words of a parcel's search_doc that only its owners' names give (computed by the importer,
-- features/search/search-columns.ts): a town whose owner names are not searchable is searched in
-- ts_delete(search_doc, owner_words), so no new word index is built. Rolls published before this
-- migration hold none until their town publishes again: adding the column rewrites no roll.
alter table properties
  add column owner_words text[] not null default '{}';

-- Storage main, as every other search column (0004): kept inline beside the word vector.
alter table properties
  alter column owner_words set storage main;
