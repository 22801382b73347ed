import { describe, expect, it } from 'vitest';
import { indexTerms, queryParts } from './search-text.ts';
import { canonicalWord, queryWord } from './street-words.ts';

/** The indexed words of a value. */
const wordsOf = (value: string) => {
  const into = new Set<string>();
  indexTerms(value, into);
  return [...into];
};

/** Whether a search for `query` finds `value`: every query word starts one of its words. */
const searchFinds = (query: string, value: string) => {
  const words = wordsOf(value);
  return queryParts(query).every((p) => words.some((w) => w.startsWith(p.term)));
};

/** Whether type-ahead finds `value` with every word of `query` finished (matched whole). */
const wholeWordsFind = (query: string, value: string) => {
  const words = wordsOf(value);
  return queryParts(query).every((p) => words.includes(p.word));
};

describe('street suffixes and ordinals', () => {
  it.each([
    ['212 Third Street', '212 THIRD ST'],
    ['212 3rd St', '212 THIRD ST'],
    ['212 third st', '212 3RD STREET'],
    ['1564 Massachusetts Avenue', '1564 MASSACHUSETTS AVE'],
    ['1564 massachusetts ave', '1564 MASSACHUSETTS AVENUE'],
    ['4 Canal Park', '4 CANAL PK'],
    ['4 canal pk', '4 CANAL PARK'],
    ['12 Oak Road', '12 OAK RD'],
    ['12 oak rd', '12 OAK ROAD'],
    ['7 Elm Strt', '7 ELM ST'],
    ['9 Memorial Drive', '9 MEMORIAL DR'],
    ['1 Harvard Sq', '1 HARVARD SQUARE'],
    ['88 Fresh Pond Parkway', '88 FRESH POND PKWY'],
    ['5 Lake Blvd', '5 LAKE BOULEVARD'],
    ['100 21st Ave', '100 21ST AVENUE'],
  ])('a search for "%s" finds %s, and so does type-ahead with every word finished', (query, value) => {
    expect(searchFinds(query, value)).toBe(true);
    expect(wholeWordsFind(query, value)).toBe(true);
  });

  it.each([
    ['212 Thi', '212 3RD ST'],
    ['1564 mass av', '1564 MASSACHUSETTS AVENUE'],
    ['212 third stre', '212 THIRD ST'],
    ['88 fresh pond parkw', '88 FRESH POND PKWY'],
    ['12 oak ro', '12 OAK RD'],
    ['12 oak r', '12 OAK ROAD'],
  ])('a word being typed ("%s") already finds %s', (query, value) => {
    expect(searchFinds(query, value)).toBe(true);
  });

  it('keeps different suffixes and numbers apart', () => {
    expect(searchFinds('212 Third Avenue', '212 THIRD ST')).toBe(false);
    expect(searchFinds('212 4th St', '212 THIRD ST')).toBe(false);
    expect(wholeWordsFind('12 oak ct', '12 OAK CIRCLE')).toBe(false);
    expect(searchFinds('12 oak rd', '12 OAK RIDGE')).toBe(false);
    expect(searchFinds('3 pk', '3 CANAL PL')).toBe(false);
  });

  it('indexes every spelling of a suffix or ordinal as one word, the same number of words as written', () => {
    expect(canonicalWord('st')).toBe('street');
    expect(canonicalWord('street')).toBe('street');
    expect(canonicalWord('rd')).toBe('road');
    expect(canonicalWord('3rd')).toBe('third');
    expect(canonicalWord('pk')).toBe('park');
    expect(canonicalWord('main')).toBe('main');
    expect(wordsOf('303 THIRD ST')).toEqual(['303', 'third', 'street']);
    expect(wordsOf('303 3RD STREET')).toEqual(['303', 'third', 'street']);
  });

  it('reads a typed word as it stands unless the index holds it under another name', () => {
    expect(queryWord('st')).toBe('st');
    expect(queryWord('stre')).toBe('stre');
    expect(queryWord('strt')).toBe('street');
    expect(queryWord('pk')).toBe('park');
    expect(queryWord('rd')).toBe('road');
    expect(queryWord('3rd')).toBe('third');
    expect(queryWord('st', true)).toBe('street');
    expect(queryWord('3rd', true)).toBe('third');
    expect(queryWord('smith')).toBe('smith');
  });
});
