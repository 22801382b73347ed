import { describe, expect, it } from 'vitest';
import { indexTerms, queryParts } from './search-text.ts';
import { canonicalWord, halfTypedReadings, queryWord } from './street-words.ts';

/** The indexed words of a value. */
const wordsOf = (value: string) => {
  const into = new Set<string>();
  indexTerms(value, into);
  return [...into];
};

/**
 * Whether a search for `query` finds `value`: every query word starts one of its words (or, partly
 * typed, what it may stand for does).
 */
const searchFinds = (query: string, value: string) => {
  const words = wordsOf(value);
  return queryParts(query).every((p) =>
    [p.term, ...p.readings].some((t) => words.some((w) => w.startsWith(t))),
  );
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
    // An abbreviation or ordinal half typed: its letters begin no word the index holds for it.
    ['212 3r', '212 THIRD ST'],
    ['88 fresh pond pkw', '88 FRESH POND PARKWAY'],
    ['5 lake blv', '5 LAKE BLVD'],
    ['9 route 10 hw', '9 ROUTE 10 HWY'],
    ['100 21s', '100 21ST AVE'],
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

  it('reads a half-typed abbreviation as itself or the words it may become, never a number or a guess', () => {
    expect(halfTypedReadings('3r')).toEqual(['third']);
    expect(halfTypedReadings('pkw')).toEqual(['parkway']);
    expect(halfTypedReadings('hw')).toEqual(['highway']);
    // Itself still: HWANG is found while "hw" is typed.
    expect(searchFinds('hw', 'HWANG, MIN')).toBe(true);
    // A member or a prefix of the name itself needs no other reading; a house number is not an ordinal.
    expect(halfTypedReadings('st')).toEqual([]);
    expect(halfTypedReadings('stre')).toEqual([]);
    expect(halfTypedReadings('10')).toEqual([]);
    // One letter, or letters that begin many classes' abbreviations, are too little to tell.
    expect(halfTypedReadings('b')).toEqual([]);
    expect(halfTypedReadings('ex')).toEqual([]);
    expect(searchFinds('212 3r', '212 THORNE RD')).toBe(false);
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
