/**
 * `filterVal`, the formatter of a field's values (admin-spec §3 "Index field", portal-spec §3
 * "Field configuration" and "Facet config"): the values it may take, which formatter a field without
 * one gets, and the formatting itself. Index fields (settings, `index/fields`) and facets (the global
 * config) are checked against `filterVals`; the asset page, the result list and info panel, and the
 * range facets all show values through `formatFieldValue`. No module here imports anything, so the
 * browser may load it.
 */

/** `none` shows values as they are; `other` (the facet form of the spec) means the same. */
export const filterVals = ['date', 'datetime', 'filesize', 'none', 'other'] as const;
export type FilterVal = (typeof filterVals)[number];

/** How values are shown: a short date, a date and time, a file size, or as they are. */
export type ValueFormat = 'date' | 'datetime' | 'filesize' | 'none';

/** What of a field (an index field, or a facet's) says how its values are shown. */
export interface FormattedField {
  field_name?: string;
  type?: string;
  options?: { filterVal?: FilterVal };
}

/**
 * The formatter of a field: the one `filterVal` names (by default the field's own), else by the
 * field's type and name (a date field's values as dates, `file_size` as a size), else none.
 */
export function valueFormatOf(
  field: FormattedField | undefined,
  filterVal: FilterVal | undefined = field?.options?.filterVal,
): ValueFormat {
  if (filterVal === 'other') return 'none';
  if (filterVal) return filterVal;
  if (field?.type === 'date') return 'date';
  if (field?.field_name === 'file_size') return 'filesize';
  return 'none';
}

const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
const binaryUnits = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** A human-readable size with three significant digits, base 1000 (or 1024). */
export function formatFileSize(bytes: number, lang: string, base: 1000 | 1024 = 1000): string {
  const names = base === 1024 ? binaryUnits : units;
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= base && unit < names.length - 1) {
    value /= base;
    unit++;
  }
  const number = new Intl.NumberFormat(lang, { maximumSignificantDigits: 3 }).format(value);
  return `${number} ${names[unit]}`;
}

/** Dates arrive as epoch milliseconds or ISO text. */
function toDate(value: unknown): Date | undefined {
  const d = typeof value === 'number' || typeof value === 'string' ? new Date(value) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

/**
 * One value as text in the language `lang`; lists are joined with commas, empty values are ''.
 * File sizes are in base 1000 unless `fileSizeBase` says 1024. A `date` is the day in UTC (a date without a time is stored as midnight UTC, and a range facet's
 * days are UTC days); a `datetime` is shown in the viewer's time zone. Other numbers are written
 * with the language's decimal sign and without grouping (a year stays 2024).
 */
export function formatFieldValue(
  value: unknown,
  format: ValueFormat,
  lang: string,
  fileSizeBase: 1000 | 1024 = 1000,
): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value)) {
    return value
      .map((v) => formatFieldValue(v, format, lang, fileSizeBase))
      .filter(Boolean)
      .join(', ');
  }
  if (format === 'filesize' && typeof value === 'number') return formatFileSize(value, lang, fileSizeBase);
  const date = format === 'date' || format === 'datetime' ? toDate(value) : undefined;
  if (date) {
    const style: Intl.DateTimeFormatOptions =
      format === 'date' ? { dateStyle: 'short', timeZone: 'UTC' } : { dateStyle: 'short', timeStyle: 'short' };
    return new Intl.DateTimeFormat(lang, style).format(date);
  }
  if (typeof value === 'number') {
    return new Intl.NumberFormat(lang, { useGrouping: false, maximumFractionDigits: 20 }).format(value);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
