import { describe, expect, it } from 'vitest';
import { InsightRecorder, normaliseSearch, rowsOf, type InsightRow } from './insights.recorder.ts';

/** A sink that keeps the batches it is given (the SQL is covered by insights.routes.test.ts). */
function sink(fail = false) {
  const batches: InsightRow[][] = [];
  return {
    batches,
    insertEvents: async (rows: readonly InsightRow[]) => {
      batches.push([...rows]);
      if (fail) throw new Error('database away');
    },
  };
}

const view = (assetId: number) => ({ kind: 'view', audience: 'guest', assetId }) as const;
const noErrors = () => {
  throw new Error('no batch should fail');
};

describe('InsightRecorder: statistics written in batches, never on the request path', () => {
  it('writes many events recorded within its delay with one insert, each at its own time', async () => {
    const s = sink();
    const recorder = new InsightRecorder(s, { enabled: true, onError: noErrors, delayMs: 50 });
    const at = Date.parse('2026-03-01T23:59:59Z');
    for (let i = 0; i < 300; i++) recorder.record(view(i + 1), at + i * 1000);
    expect(s.batches).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(s.batches).toHaveLength(1);
    expect(s.batches[0]).toHaveLength(300);
    // Each event is counted on the UTC day it happened.
    expect(s.batches[0]?.slice(0, 2).map((r) => [r.day, r.key])).toEqual([
      ['2026-03-01', '1'],
      ['2026-03-02', '2'],
    ]);
  });

  it('writes at once when the batch is full, and settled() writes what is left', async () => {
    const s = sink();
    const recorder = new InsightRecorder(s, { enabled: true, onError: noErrors, delayMs: 60_000, maxBatch: 3 });
    for (let i = 1; i <= 4; i++) recorder.record(view(i));
    expect(s.batches.map((b) => b.map((r) => r.key))).toEqual([['1', '2', '3']]);
    await recorder.settled();
    expect(s.batches.map((b) => b.map((r) => r.key))).toEqual([['1', '2', '3'], ['4']]);
  });

  it('reports a failed batch and drops it, then goes on with the next', async () => {
    const s = sink(true);
    const errors: string[] = [];
    const recorder = new InsightRecorder(s, {
      enabled: true,
      onError: (err) => errors.push((err as Error).message),
      delayMs: 60_000,
    });
    recorder.record(view(1));
    recorder.record(view(2));
    await recorder.settled();
    expect(errors).toEqual(['database away']);
    recorder.record(view(3));
    await recorder.settled();
    expect(s.batches.map((b) => b.length)).toEqual([2, 1]);
  });

  it('records nothing when statistics are off (insights.enabled false)', async () => {
    const s = sink();
    const recorder = new InsightRecorder(s, { enabled: false, onError: noErrors, delayMs: 1 });
    recorder.record(view(1));
    await recorder.settled();
    expect(s.batches).toEqual([]);
  });

  it('counts a search by its normalised text, with its facets and results', () => {
    expect(normaliseSearch('  Red\tCAR  in   Rome ')).toBe('red car in rome');
    expect(normaliseSearch('   ')).toBe('*');
    expect(normaliseSearch('x'.repeat(500))).toHaveLength(200);
    const rows = rowsOf(
      { kind: 'search', audience: 'account', text: ' Harbour ', facets: ['category', 'category', 'year'], results: 0 },
      0,
    );
    expect(rows.map((r) => [r.kind, r.audience, r.key, r.results])).toEqual([
      ['search', 'account', 'harbour', 0],
      ['facet', 'account', 'category', null],
      ['facet', 'account', 'year', null],
    ]);
  });

  it('counts a zip as each of its files, its set and itself; a login by method and outcome only', () => {
    const zip = rowsOf({ kind: 'download', audience: 'guest', csetId: 2, assetIds: [5, 6], zip: true }, 0);
    expect(zip.map((r) => [r.kind, r.key, r.asset_id, r.n])).toEqual([
      ['download', '5', 5, 1],
      ['download', '6', 6, 1],
      ['download_set', '2', null, 2],
      ['zip', '2', null, 1],
    ]);
    expect(rowsOf({ kind: 'login', method: 'sso', ok: false }, 0).map((r) => [r.audience, r.key])).toEqual([
      ['guest', 'sso:failed'],
    ]);
  });
});
