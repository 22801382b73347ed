import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeKey, fold, indexTerms, naturalKey } from './search-text.ts';
import { canonicalWord } from './street-words.ts';

/** naturalKey as first written: the definition its faster form must keep to (sort keys of stored rolls). */
function naturalKeyByRegex(value: string | null | undefined): string | null {
  if (value == null) return null;
  const folded = fold(value).replace(/\s+/g, ' ').trim();
  if (!folded) return null;
  return folded.replace(/\d+/g, (d) => {
    const n = d.replace(/^0+(?=\d)/, '');
    return n.length >= 12 ? n : n.padStart(12, '0');
  });
}

/** indexTerms as first written (a Unicode-aware split for all text), the definition of the word index. */
function indexTermsBySplit(value: string | null | undefined): string[] {
  const words = new Set<string>();
  const into = { add: (w: string) => words.add(canonicalWord(w)) };
  if (!value) return [];
  const ascii = (t: string) => t.replace(/[^a-z0-9]/g, '');
  for (const raw of fold(value).split(/[\s,;/&+()[\]{}|]+/u)) {
    if (!raw) continue;
    if (/^[a-z0-9]+$/.test(raw)) {
      into.add(raw.length > 100 ? raw.slice(0, 100) : raw);
      continue;
    }
    const joined = ascii(raw.replace(/[^\p{L}\p{N}]+/gu, '')).slice(0, 100);
    if (joined) into.add(joined);
    const parts = raw.split(/[^\p{L}\p{N}]+/gu);
    if (parts.length > 1)
      for (const p of parts) {
        const t = ascii(p).slice(0, 100);
        if (t) into.add(t);
      }
  }
  return [...words];
}

const termsOf = (value: string) => {
  const into = new Set<string>();
  indexTerms(value, into);
  return [...into];
};

/** Text made of what these functions treat differently: separators, punctuation, spaces, digits, letters. */
const edgyText = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      ' ',
      '\t',
      '\v',
      '\u001f',
      ',',
      '/',
      '&',
      '|',
      '{',
      '-',
      '.',
      "'",
      '#',
      '0',
      '7',
      'a',
      'Q',
      'é',
      'ß',
      '\u00a0',
      '٣',
    ),
    maxLength: 40,
  }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string(),
);

/** `fast` gives what `definition` gives, on generated text. */
function agreesOnAnyText<T>(fast: (v: string) => T, definition: (v: string) => T, text = edgyText) {
  fc.assert(
    fc.property(text, (value) => {
      expect(fast(value)).toEqual(definition(value));
    }),
    { numRuns: 5000 },
  );
}

describe('indexTerms', () => {
  it('indexes words, their punctuation-free forms and their pieces', () => {
    expect(termsOf("O'BRIEN, JOHN & MARY")).toEqual(['obrien', 'o', 'brien', 'john', 'mary']);
    expect(termsOf('R01-002-A')).toEqual(['r01002a', 'r01', '002', 'a']);
    expect(termsOf('  Élodie/ST  ')).toEqual(['elodie', 'street']);
    expect(termsOf('x'.repeat(150))).toEqual(['x'.repeat(100)]);
  });

  it('agrees with its definition on any text, in the same order', () => {
    agreesOnAnyText(termsOf, indexTermsBySplit);
  });
});

describe('codeKey', () => {
  it('agrees with its definition on any text', () => {
    const byRegex = (v: string) =>
      fold(v)
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+/, '');
    expect(codeKey('001-001')).toBe('001-001');
    expect(codeKey('R01 - 002/A')).toBe('r01-002-a');
    agreesOnAnyText(codeKey, byRegex);
  });
});

describe('naturalKey', () => {
  it('pads digit runs so numbers sort by value, and tidies spaces', () => {
    expect(naturalKey('  12  Main\tSt ')).toBe('000000000012 main st');
    expect(naturalKey('R01-002-A')).toBe('r000000000001-000000000002-a');
    expect(naturalKey('007')).toBe('000000000007');
    expect(naturalKey('0000')).toBe('000000000000');
    expect(naturalKey('1234567890123')).toBe('1234567890123');
    expect(naturalKey('\u00a0')).toBeNull();
    expect(naturalKey(null)).toBeNull();
    expect([naturalKey('2-10'), naturalKey('10-1')].sort()).toEqual([naturalKey('2-10'), naturalKey('10-1')]);
  });

  it('agrees with its definition on any text', () => {
    const chars = fc.constantFrom(' ', '\t', '\u00a0', '\u2028', '0', '1', '9', 'a', 'Z', '-', 'é', '½', '٣');
    agreesOnAnyText(
      naturalKey,
      naturalKeyByRegex,
      fc.oneof(fc.string({ unit: chars, maxLength: 30 }), edgyText),
    );
  });
});
