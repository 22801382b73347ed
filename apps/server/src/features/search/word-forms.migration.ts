import { escapeLiteral } from 'pg';
import { allWordForms } from '../properties/street-words.ts';

/*
 * Migration 0021, written from street-words.ts rather than copied into a .sql file (db/migrate.ts runs
 * it in name order with the others): the rolls published before street suffixes and ordinals were
 * indexed by what they stand for hold only the words as the roll wrote them (`st`, `3rd`), while queries
 * now ask for those forms (`street`, `third`). Each stored word becomes the words an import indexes for
 * it today (wordForms), so a roll already published answers "212 Third Street" without publishing again.
 * owner_words is worked out the same way: the forms of the owner-only words less the forms of the rest.
 */
export const WORD_FORMS_MIGRATION = '0021_street_word_forms';

export function wordFormsMigrationScript(): string {
  const forms = escapeLiteral(JSON.stringify(allWordForms()));
  // `refold(words)`: each word's forms (itself when it has none), distinct.
  const refold = (words: string) =>
    `select distinct f from unnest(${words}) as w(v),
        lateral jsonb_array_elements_text(coalesce(m.forms -> w.v, jsonb_build_array(w.v))) as e(f)`;
  return `
    update properties p
       set search_doc = array_to_tsvector(array(${refold('tsvector_to_array(p.search_doc)')})),
           owner_words = array(
             ${refold('p.owner_words')}
             except
             ${refold('array(select a from unnest(tsvector_to_array(p.search_doc)) as a where a <> all (p.owner_words))')})
      from (select ${forms}::jsonb as forms,
                   array(select jsonb_object_keys(${forms}::jsonb)) as words) m
     where tsvector_to_array(p.search_doc) && m.words;`;
}
