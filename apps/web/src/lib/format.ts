/** Formatters of field values (portal-spec §3 "Field configuration": filesize, date, none). */
export type FilterVal = 'date' | 'datetime' | 'filesize' | 'none';

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
  const d = typeof value === 'number' ? new Date(value) : typeof value === 'string' ? new Date(value) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

/** One value as text in the caller's language; lists are joined with commas. */
export function formatValue(value: unknown, filterVal: FilterVal | undefined, lang: string): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value)) {
    return value
      .map((v) => formatValue(v, filterVal, lang))
      .filter(Boolean)
      .join(', ');
  }
  if (filterVal === 'filesize' && typeof value === 'number') return formatFileSize(value, lang);
  if (filterVal === 'date' || filterVal === 'datetime') {
    const d = toDate(value);
    if (d) {
      return new Intl.DateTimeFormat(lang, {
        dateStyle: 'short',
        ...(filterVal === 'datetime' ? { timeStyle: 'short' } : {}),
      }).format(d);
    }
  }
  if (typeof value === 'number') return new Intl.NumberFormat(lang).format(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
