import { describe, expect, it } from 'vitest';
import { canonical, sameValues, type FieldValues } from './edit-overlay.ts';

// A change of a field is recorded only when its values differ (docs/editing.md, decision 0250).
describe('sameValues', () => {
  const cases: [FieldValues | null, FieldValues | null][] = [
    [{ en: ['a', 'b'] }, { en: ['a', 'b'] }],
    [
      { en: ['a'], de: ['b'] },
      { de: ['b'], en: ['a'] },
    ],
    [{ en: ['a'], de: [] }, { en: ['a'] }],
    [{}, { en: [] }],
    [{ en: ['a', 'b'] }, { en: ['b', 'a'] }],
    [{ en: ['a'] }, { en: ['a', 'a'] }],
    [{ en: ['a'] }, { de: ['a'] }],
    [{ en: ['a'] }, { en: ['a'], de: ['b'] }],
    [{ en: ['a'], de: ['b'] }, { en: ['a'] }],
    [null, {}],
    [null, null],
    [{ '': ['x'] }, { '': ['x'] }],
  ];

  it.each(cases)('compares %j and %j as their canonical texts do', (a, b) => {
    expect(sameValues(a, b)).toBe(canonical(a) === canonical(b));
    expect(sameValues(b, a)).toBe(canonical(a) === canonical(b));
  });

  it('tells apart values that differ in order, count or language, and not those that differ only in empty languages', () => {
    expect(sameValues({ en: ['a', 'b'] }, { en: ['b', 'a'] })).toBe(false);
    expect(sameValues({ en: ['a'] }, { de: ['a'] })).toBe(false);
    expect(sameValues({ en: ['a'], de: [] }, { en: ['a'] })).toBe(true);
    expect(sameValues(null, {})).toBe(false);
  });

  it('canonical text: languages sorted, empty ones left out, whatever the order they came in', () => {
    expect(canonical({ en: ['a'], de: ['b'], fr: [] })).toBe('{"de":["b"],"en":["a"]}');
    expect(canonical({ de: ['b'], en: ['a'] })).toBe('{"de":["b"],"en":["a"]}');
    expect(canonical({ '': ['x', 'y'] })).toBe('{"":["x","y"]}');
    expect(canonical({ en: [] })).toBe('{}');
    expect(canonical(null)).toBe('null');
  });
});
