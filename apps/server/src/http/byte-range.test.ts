import { describe, expect, it } from 'vitest';
import { parseByteRange } from './byte-range.ts';

const SIZE = 1000;

describe('Range headers (RFC 9110 §14)', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-500', { start: 500, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
    ['Bytes=0-9', { start: 0, end: 9 }],
    [' bytes=0-9 ', { start: 0, end: 9 }],
    ['bytes=0-9,', { start: 0, end: 9 }],
    ['bytes= 0-9 , ', { start: 0, end: 9 }],
  ])('sends %j as the range %j', (header, range) => {
    expect(parseByteRange(header, SIZE)).toEqual(range);
  });

  it.each([
    ['bytes=1000-', 'a first position at the end'],
    ['bytes=5000-6000', 'a first position past the end'],
    ['bytes=-0', 'a suffix of no bytes'],
  ])('answers %j as unsatisfiable: %s', (header, _why) => {
    expect(parseByteRange(header, SIZE)).toBe('unsatisfiable');
  });

  it.each([
    [undefined, 'no header'],
    ['', 'an empty header'],
    ['bytes=500-100', 'a last position before the first (an invalid range)'],
    ['bytes=0-1,5-6', 'several ranges'],
    ['bytes=0-1,2000-3000', 'several ranges, one of them outside'],
    ['bytes=-', 'no position'],
    ['bytes=a-b', 'no numbers'],
    ['bytes=1.5-2', 'no whole numbers'],
    ['bytes=--5', 'a negative number'],
    ['items=0-9', 'another unit'],
    ['bytes 0-9', 'no ='],
    ['0-9', 'no unit'],
  ])('sends the whole file for %j: %s', (header, _why) => {
    expect(parseByteRange(header, SIZE)).toBeNull();
  });

  it('sends the whole file when If-Range names another version', () => {
    expect(parseByteRange('bytes=0-9', SIZE, '"old"', '"new"')).toBeNull();
    expect(parseByteRange('bytes=0-9', SIZE, '"new"', '"new"')).toEqual({ start: 0, end: 9 });
  });

  it('sends an empty file whole for a suffix, and refuses a first position in it', () => {
    expect(parseByteRange('bytes=-10', 0)).toBeNull();
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});
