import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssets } from '../../test/factories.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createSearchEngine } from './create-engine.ts';
import {
  MAX_QUERY_PREFIXES,
  MAX_QUERY_TERMS,
  QUERY_TOO_COSTLY,
  SearchInputError,
  TEXT_CACHE,
  type SearchEngine,
} from '@vitrine/search-engine';

const letters = 'abcdefghijklmnopqrstuvwxyz';

describe.each(dialects)('bounded cost of a search on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let engine: SearchEngine;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    await buildAssets(
      db,
      Array.from({ length: 50 }, (_, i) => ({
        values: { title: { en: `Quay ${letters[i % 26]}${letters[(i * 7) % 26]}ore number ${i}` } },
        access: ['public'],
      })),
    );
    engine = createSearchEngine(db, []);
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const refusal = async (q: string): Promise<SearchInputError> => {
    const err: unknown = await engine.search(['public'], { q }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof SearchInputError)) throw new Error(`'${q.slice(0, 40)}…' was not refused`);
    return err;
  };

  it('an over-long query (more words than allowed) is refused as too costly, one at the limit is answered', async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `quay${i}`).join(' OR ');
    const err = await refusal(words(MAX_QUERY_TERMS + 1));
    expect(err.errorId).toBe(QUERY_TOO_COSTLY);
    expect(err.param).toBe('solr_q');
    await expect(engine.search(['public'], { q: words(MAX_QUERY_TERMS) })).resolves.toMatchObject({ numFound: 0 });
  });

  it('an over-expanding query (120 two-letter prefixes) is refused as too costly', async () => {
    const prefixes = Array.from({ length: 120 }, (_, i) => `${letters[i % 26]}${letters[Math.floor(i / 26)]}*`);
    const err = await refusal(prefixes.join(' OR '));
    expect(err.errorId).toBe(QUERY_TOO_COSTLY);
    const allowed = prefixes.slice(0, MAX_QUERY_PREFIXES).join(' OR ');
    expect((await engine.search(['public'], { q: allowed })).numFound).toBeGreaterThan(0);
  });

  it('10,000 searches of distinct random words leave the text cache within its bound', async () => {
    const seen = new Set<string>();
    while (seen.size < 10_000) seen.add(`z${randomBytes(6).toString('hex')}`);
    let found = 0;
    for (const word of seen) {
      found += (await engine.search(['public'], { q: word, rows: 0, sort: { field: 'filename', dir: 'asc' } }))
        .numFound;
    }
    expect(found).toBe(0);
    const held = engine.textCacheHeld;
    expect(held.entries).toBeLessThanOrEqual(TEXT_CACHE.entries);
    expect(held.entries).toBeGreaterThan(0);
    expect(held.bytes).toBeLessThanOrEqual(TEXT_CACHE.bytes);
    // The words still match what they matched before.
    expect((await engine.search(['public'], { q: 'quay' })).numFound).toBe(50);
  }, 180_000);
});
