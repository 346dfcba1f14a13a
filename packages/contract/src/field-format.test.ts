import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { filterVals, formatFieldValue, formatFileSize, valueFormatOf } from './field-format.ts';
import { facetConfigSchema } from './global-config.ts';
import { indexFieldSchema } from './search.ts';

const indexField = (filterVal: unknown) => ({
  field_name: 'f',
  default_labels: {},
  is_facet: true,
  range_facet: false,
  multi_valued: false,
  origin: 'settings',
  type: 'int',
  options: { filterVal },
});
const facet = (filterVal: unknown) => ({ field_name: 'f', position: 1, options: { filterVal } });

describe('filterVal', () => {
  it('takes the same values on index fields and on facets', () => {
    for (const v of filterVals) {
      expect(indexFieldSchema.safeParse(indexField(v)).success, v).toBe(true);
      expect(facetConfigSchema.safeParse(facet(v)).success, v).toBe(true);
    }
    for (const bad of ['size', 'Date', '']) {
      expect(indexFieldSchema.safeParse(indexField(bad)).success, bad).toBe(false);
      expect(facetConfigSchema.safeParse(facet(bad)).success, bad).toBe(false);
    }
  });

  it('names the formatter: filterVal first, else by the field’s type and name', () => {
    expect(valueFormatOf({ type: 'int', options: { filterVal: 'filesize' } })).toBe('filesize');
    expect(valueFormatOf({ type: 'date', options: { filterVal: 'none' } })).toBe('none');
    expect(valueFormatOf({ type: 'date', options: { filterVal: 'other' } })).toBe('none');
    expect(valueFormatOf({ type: 'date', options: {} })).toBe('date');
    expect(valueFormatOf({ field_name: 'file_size', type: 'int' })).toBe('filesize');
    expect(valueFormatOf({ field_name: 'rating', type: 'int' })).toBe('none');
    expect(valueFormatOf(undefined)).toBe('none');
    // A facet's own filterVal wins over its index field's.
    expect(valueFormatOf({ type: 'date', options: { filterVal: 'date' } }, 'datetime')).toBe('datetime');
  });
});

describe('formatFieldValue', () => {
  const may1 = Date.UTC(2024, 4, 1);
  // A viewer west of UTC, where midnight UTC is still the day before.
  beforeAll(() => void vi.stubEnv('TZ', 'America/Los_Angeles'));
  afterAll(() => void vi.unstubAllEnvs());

  it('shows a date as its day in UTC, whatever the viewer’s time zone', () => {
    expect(formatFieldValue(may1, 'date', 'en')).toBe('5/1/24');
    expect(formatFieldValue('2024-05-01', 'date', 'de')).toBe('01.05.24');
    expect(formatFieldValue(Date.UTC(2024, 4, 1, 23, 30), 'date', 'en')).toBe('5/1/24');
  });

  it('shows a date and time in the viewer’s time zone', () => {
    // ICU versions put a space or a narrow no-break space before PM.
    expect(formatFieldValue(may1, 'datetime', 'en').replace(/\s/g, ' ')).toBe('4/30/24, 5:00 PM');
  });

  it('shows sizes with three significant digits, base 1000 unless 1024 is asked for', () => {
    expect(formatFieldValue(1_234_567, 'filesize', 'en')).toBe('1.23 MB');
    expect(formatFieldValue(1_234_567, 'filesize', 'de')).toBe('1,23 MB');
    expect(formatFileSize(2048, 'en', 1024)).toBe('2 KiB');
    expect(formatFileSize(999, 'en')).toBe('999 B');
    expect(formatFileSize(3e18, 'en')).toBe('3,000 PB');
  });

  it('shows other values as they are: numbers with the language’s decimal sign, never grouped', () => {
    expect(formatFieldValue(2024, 'none', 'de')).toBe('2024');
    expect(formatFieldValue(12.5, 'none', 'de')).toBe('12,5');
    expect(formatFieldValue(0.1, 'none', 'en')).toBe('0.1');
    expect(formatFieldValue('Berlin', 'date', 'en')).toBe('Berlin');
    expect(formatFieldValue(true, 'none', 'en')).toBe('true');
  });

  it('joins lists and leaves empty values empty', () => {
    expect(formatFieldValue(['a', '', null, 'b'], 'none', 'en')).toBe('a, b');
    expect(formatFieldValue([1000, 2000], 'filesize', 'en')).toBe('1 kB, 2 kB');
    for (const empty of [undefined, null, '', []]) expect(formatFieldValue(empty, 'none', 'en')).toBe('');
  });
});
