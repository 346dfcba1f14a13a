import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './csv.ts';

describe('statistics as CSV (issue #51)', () => {
  it('starts with a byte order mark and a header row, quotes every field, doubles quotes, ends lines with CRLF', () => {
    expect(
      toCsv(
        ['Search text', 'Times asked'],
        [
          ['größe "xl", rot', 5],
          ['line\nbreak', 0],
        ],
      ),
    ).toBe('\uFEFF"Search text","Times asked"\r\n"größe ""xl"", rot","5"\r\n"line\nbreak","0"\r\n');
  });

  it('writes only the header of an empty table', () => {
    expect(toCsv(['Day', 'Searches'], [])).toBe('\uFEFF"Day","Searches"\r\n');
  });

  it('names the file after the table and the period', () => {
    expect(csvFileName('top-searches', { from: '2026-11-07', to: '2026-12-06' })).toBe(
      'statistics-top-searches-2026-11-07-2026-12-06.csv',
    );
  });
});
