import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '@vitrine/contract/must';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { PostgresTextIndex } from './postgres-text.repository.ts';
import { SearchRepository } from './search.repository.ts';

/** Every node type of a PostgreSQL plan (EXPLAIN FORMAT JSON). */
function nodeTypes(plan: { 'Node Type': string; Plans?: unknown[] }): string[] {
  return [plan['Node Type'], ...(plan.Plans ?? []).flatMap((p) => nodeTypes(p as typeof plan))];
}

describe('ARCHITECTURE §3 "Search": reading a large catalogue on postgres', () => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await createTestDatabase('postgres');
    db = await openDatabase(test.config);
    // Statistics taken while the catalogue was small and hardly active, then a bulk load of active
    // assets (bench data, an import) before the next analysis: the (status, imp_date) index then
    // looks selective, and PostgreSQL sorted every active asset for each batch read.
    const insert = (from: number, to: number, status: string) =>
      sql`insert into asset (source_path, filename, sha256, file_size, mime, format, asset_group, status, imp_date, updated_at)
        select '/a/' || i, i || '.jpg', 'x', 1, 'image/jpeg', 'jpg', 'image', ${status}, i, i
        from generate_series(${from}::int, ${to}::int) as i`.execute(db.kysely);
    await insert(1, 200, 'deleted');
    await sql`analyze asset`.execute(db.kysely);
    await insert(201, 20_000, 'active');
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  it('answers each batch by walking an index in id order, not by sorting every active asset', async () => {
    expect(await new SearchRepository(db).activeIdsAfter(10_000, 5)).toEqual([10_001, 10_002, 10_003, 10_004, 10_005]);
    const query = new SearchRepository(db).activeIdsQuery(10_000, 5).compile();
    const { rows } = await db.kysely.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Node Type': string } }] }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const types = nodeTypes(must(rows[0], 'a query plan')['QUERY PLAN'][0].Plan);
    expect(types).not.toContain('Sort');
    expect(types).not.toContain('Seq Scan');
  });

  it('finds the frequent words from a sample of a large text index, and only words near the bound', async () => {
    const text = new PostgresTextIndex(db, 1000);
    // 6,000 documents: 'common' in every second one, 'usual' in every fifth, 'scarce' in every 60th.
    const docs = Array.from({ length: 6000 }, (_, i) => ({
      id: i + 1,
      title: 'x',
      body: [i % 2 === 0 ? 'common' : '', i % 5 === 0 ? 'usual' : '', i % 60 === 0 ? 'scarce' : '', 'x'].join(' '),
    }));
    await db.kysely.transaction().execute((trx) => text.write(docs, [], trx));
    const sampled = await text.frequentWords(1000, docs.length);
    expect(sampled).toContain('common');
    expect(sampled).toContain('usual');
    expect(sampled).not.toContain('scarce');
    // Read whole, the bound is exact.
    expect((await text.frequentWords(1500)).sort()).toEqual(['common', 'x']);
  });
});

describe('ARCHITECTURE §3 "Search": a PostgreSQL database of another collation (decision 0274)', () => {
  it("reads an asset's values in code point order, as SQLite does and a change's writer sorts them", async () => {
    // ICU's English order puts "alpha" before "Zeta"; code points put "Zeta" first.
    const test = await createTestDatabase('postgres', "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en'");
    const db = await openDatabase(test.config);
    try {
      const { rows } = await sql<{
        first: string;
      }>`select min(f) as first from (values ('alpha'), ('Zeta')) as t(f)`.execute(db.kysely);
      expect(rows[0]?.first).toBe('alpha');
      const [asset] = await sql<{
        id: number;
      }>`insert into asset (source_path, filename, sha256, file_size, mime, format, asset_group, status, imp_date, updated_at)
        values ('/a/1', '1.jpg', 'x', 1, 'image/jpeg', 'jpg', 'image', 'active', 1, 1) returning id`
        .execute(db.kysely)
        .then((r) => r.rows);
      const id = Number(must(asset, 'an asset').id);
      for (const [field, lang, ord, value] of [
        ['alpha', 'en', 0, 'a'],
        ['Zeta', 'en', 0, 'z'],
        ['alpha', 'De', 0, 'd'],
        ['alpha', 'de', 0, 'e'],
      ] as const)
        await sql`insert into asset_value (asset_id, field, lang, ord, value) values (${id}, ${field}, ${lang}, ${ord}, ${value})`.execute(
          db.kysely,
        );
      const batch = await new SearchRepository(db).batch([id], 'all');
      expect(batch.values.map((v) => `${v.field} ${v.lang}`)).toEqual(['Zeta en', 'alpha De', 'alpha de', 'alpha en']);
    } finally {
      await db.close();
      await test.drop();
    }
  });
});
