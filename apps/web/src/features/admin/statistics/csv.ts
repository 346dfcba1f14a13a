/**
 * A table as CSV for spreadsheets (RFC 4180): every field quoted, quotes doubled, a header row, CRLF
 * line ends, and a UTF-8 byte order mark, without which spreadsheets read umlauts as Latin-1.
 * Numbers stay unformatted so that any spreadsheet language reads them as numbers.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (fields: readonly (string | number)[]) =>
    fields.map((field) => `"${String(field).replaceAll('"', '""')}"`).join(',');
  return `\uFEFF${[header, ...rows].map(line).join('\r\n')}\r\n`;
}

/** The file name of a table's CSV: what it holds and the period (`statistics-top-searches-2026-11-07-2026-12-06.csv`). */
export function csvFileName(table: string, period: { from: string; to: string }): string {
  return `statistics-${table}-${period.from}-${period.to}.csv`;
}

/** Hands the browser the CSV as a file download (the object URL is freed afterwards). */
export function saveCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
