import fc from 'fast-check';

/*
 * Hostile input for the fuzzer: the values that have broken web APIs before. Numbers that slip past
 * integer schemas (1e309 parses to Infinity), text PostgreSQL refuses (NUL), SQL and regex
 * metacharacters, path traversal, huge and odd unicode, and structures too deep or too wide.
 */

export const HOSTILE_TEXT: readonly string[] = [
  '',
  ' ',
  '0',
  '-0',
  '-1',
  '01',
  '1.5',
  '1e3',
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '0x1F',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999999',
  '1e-400',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '\u0000',
  'a\u0000b',
  '%00',
  '\u0000\u0001\u0002\u001f\u007f',
  "'",
  '"',
  "' OR '1'='1",
  "1' OR 1=1 --",
  "'; DROP TABLE users; --",
  '1; select pg_sleep(5)',
  "' UNION SELECT password_hash FROM users --",
  '$$',
  '\\',
  '\\x00',
  '%',
  '_',
  '%%_%',
  '*',
  '.*',
  '(a+)+$',
  '(?:(?:a*)*)*b',
  '[',
  '\\p{L}',
  '^$',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '/etc/passwd',
  'file:///etc/passwd',
  '....//....//',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  '\u202e\u0644\u0627',
  '\ud800',
  '\udfff',
  '\uffff\ufffe',
  'Z\u0351\u0358\u0336\u0307\u0352a\u0337\u0355\u0349\u033d',
  '😀👍🏽🇺🇸',
  '𝕏'.repeat(300),
  'A'.repeat(10_000),
  'ß'.repeat(1_000),
  '\r\nSet-Cookie: x=1',
  'Bearer x',
];

/** Any text: the dictionary, random unicode (lone surrogates included), and long runs. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3000 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_TEXT), fc.constantFrom(...HOSTILE_TEXT))
      .map(([a, b]) => a + b),
  },
);

function nest(depth: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** Any JSON value, with wrong types, edge numbers, deep nesting and wide objects. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324, 0.1),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileText, hostileText, { maxKeys: 5 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 50, max: 1_500 }), fc.boolean())
      .map(([d, arr]) => nest(d, 'x', arr)),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  },
  {
    weight: 1,
    arbitrary: fc.constant(JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":1}}')),
  },
);

/**
 * Raw body text that JSON.stringify cannot produce: literal 1e309 (parsed as Infinity), broken JSON,
 * duplicate keys, nesting deeper than any parser stack.
 */
export function rawBodies(template: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(template);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('x');
  return fc.oneof(
    key.map((k) => JSON.stringify(template).replace(/}$/, `${keys.length ? ',' : ''}"${k}":1e309}`)),
    key.map((k) => `{"${k}":-1e309,"${k}":Infinity}`),
    key.map((k) => `{"${k}":1e999999}`),
    fc.constantFrom(
      '',
      '{',
      '{"a":',
      'null',
      '[]',
      '"text"',
      '123',
      '{"a":1}garbage',
      '\u0000',
      '{"a":"\\u0000"}',
      '{"a":"\\ud800"}',
      '['.repeat(100_000) + ']'.repeat(100_000),
      '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000),
      `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
    ),
  );
}
