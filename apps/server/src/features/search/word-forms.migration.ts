import { escapeLiteral } from 'pg';
import { canonicalWords } from '../properties/street-words.ts';

/*
 * Migration 0023, written from street-words.ts rather than copied into a .sql file (db/migrate.ts runs
 * it in name order with the others; it replaced 0021, which indexed several forms of each word): the rolls published before street suffixes and ordinals were
 * indexed by what they stand for hold only the words as the roll wrote them (`st`, `3rd`), while queries
 * now ask for the one word of each (`street`, `third`). Each stored word becomes the word an import
 * indexes for it today (canonicalWord), so a roll already published answers "212 Third Street" without
 * publishing again. owner_words is worked out the same way: the owner-only words, so read, less the
 * rest, so read.
 */
export const WORD_FORMS_MIGRATION = '0023_street_words';

export function wordFormsMigrationScript(): string {
  const canonical = escapeLiteral(JSON.stringify(canonicalWords()));
  // `refold(words)`: each word as indexed today (itself when it has no other), distinct.
  const refold = (words: string) =>
    `select distinct coalesce(m.canonical ->> w.v, w.v) from unnest(${words}) as w(v)`;
  return `
    update properties p
       set search_doc = array_to_tsvector(array(${refold('tsvector_to_array(p.search_doc)')})),
           owner_words = array(
             ${refold('p.owner_words')}
             except
             ${refold('array(select a from unnest(tsvector_to_array(p.search_doc)) as a where a <> all (p.owner_words))')})
      from (select ${canonical}::jsonb as canonical,
                   array(select jsonb_object_keys(${canonical}::jsonb)) as words) m
     where tsvector_to_array(p.search_doc) && m.words;`;
}
