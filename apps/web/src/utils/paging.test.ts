import { describe, expect, it } from 'vitest';
import { pageAfter, parsePageInput, shownRange } from './paging';

describe('page bar rules (spec §5)', () => {
  it('ignores first and previous on page 1, next and last on the last page', () => {
    expect(pageAfter('first', 1, 5)).toBeNull();
    expect(pageAfter('previous', 1, 5)).toBeNull();
    expect(pageAfter('next', 5, 5)).toBeNull();
    expect(pageAfter('last', 5, 5)).toBeNull();
  });
  it('moves one page or to the ends otherwise', () => {
    expect(pageAfter('first', 3, 5)).toBe(1);
    expect(pageAfter('previous', 3, 5)).toBe(2);
    expect(pageAfter('next', 3, 5)).toBe(4);
    expect(pageAfter('last', 3, 5)).toBe(5);
  });
  it('treats zero pages as one page (no results)', () => {
    expect(pageAfter('next', 1, 0)).toBeNull();
    expect(pageAfter('last', 1, 0)).toBeNull();
  });
  it('accepts a typed page only between 1 and the number of pages', () => {
    expect(parsePageInput('3', 5)).toBe(3);
    expect(parsePageInput(' 5 ', 5)).toBe(5);
    expect(parsePageInput('0', 5)).toBeNull();
    expect(parsePageInput('6', 5)).toBeNull();
    expect(parsePageInput('-1', 5)).toBeNull();
    expect(parsePageInput('-3', 5)).toBeNull();
    expect(parsePageInput('3a', 5)).toBeNull();
    expect(parsePageInput('1,000', 2000)).toBe(1000);
    expect(parsePageInput('2.5', 5)).toBeNull();
    expect(parsePageInput('abc', 5)).toBeNull();
    expect(parsePageInput('', 5)).toBeNull();
  });
});

describe('Showing X to Y of N', () => {
  it('covers full, partial and empty pages', () => {
    expect(shownRange(1, 50, 120)).toEqual({ from: 1, to: 50 });
    expect(shownRange(3, 50, 120)).toEqual({ from: 101, to: 120 });
    expect(shownRange(1, 50, 0)).toEqual({ from: 0, to: 0 });
  });
});
