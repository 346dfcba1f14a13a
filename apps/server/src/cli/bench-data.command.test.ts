import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dialects } from '../../test/databases.ts';
import { openDatabase } from '../db/database.ts';
import { LOOKUP_INDEXES } from '../db/deferred-indexes.ts';
import { createSearchEngine, SNAPSHOT_FILE } from '../search/create-engine.ts';
import { SearchRepository } from '../search/search.repository.ts';
import { loadSettings } from '../settings.ts';
import { writeBenchAccounts, writeBenchData } from './bench-data.command.ts';
import { PeopleRepository } from '../people/people.repository.ts';
import { SyntheticCatalogue } from '../bench-data/synthetic.ts';

describe('vitrine bench-data', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('synthetic assets stay within the documented ranges and keywords follow Zipf', () => {
    const catalogue = new SyntheticCatalogue(1);
    const assets = Array.from({ length: 5000 }, (_, i) => catalogue.next(i, [1, 2]));
    const sizes = assets.map((a) => a.file_size!);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(500_000_000);
    const counts = new Map<string, number>();
    for (const a of assets) {
      for (const k of (a.values!.keywords as { en: string[] }).en) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const top = counts.get(catalogue.keywords[0]!) ?? 0;
    const hundredth = counts.get(catalogue.keywords[99]!) ?? 0;
    expect(top).toBeGreaterThan(5 * hundredth);
    expect(new SyntheticCatalogue(1).next(0, [])).toEqual(new SyntheticCatalogue(1).next(0, []));
  });

  it.each(dialects)('writes the assets into %s and leaves the search index ready', async (dialect) => {
    const database = await createTestDatabase(dialect);
    const dataDir = path.join(dir, dialect);
    const settings = loadSettings({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(database.config.dialect === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
    });
    // Two chunks: on PostgreSQL the second one's texts are written by the indexing thread.
    await writeBenchData(settings, 6000);
    // What the bulk write leaves besides its rows (checked before an open could repair anything):
    // on SQLite the lookup indexes, made after the rows; on PostgreSQL the new rows vacuumed.
    const raw = await openDatabase(settings.database, undefined, { migrate: false });
    try {
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ name: string }>`
          select name from sqlite_master where type = 'index' and name in (${sql.join([...LOOKUP_INDEXES])})
          order by name`.execute(raw.kysely);
        expect(rows.map((r) => r.name)).toEqual(['asset_sha_idx', 'asset_value_field_idx']);
        expect(await raw.kysely.selectFrom('deferred_index').selectAll().execute()).toEqual([]);
      } else {
        const { rows } = await sql<{ vacuum_count: string }>`
          select vacuum_count from pg_stat_user_tables where relname = 'asset_value'`.execute(raw.kysely);
        expect(Number(rows[0]?.vacuum_count)).toBeGreaterThan(0);
      }
    } finally {
      await raw.close();
    }
    const db = await openDatabase(settings.database);
    try {
      const engine = createSearchEngine(db, []);
      // The full-text index the writes made records its fields: a first start does not make it again.
      const remade = vi.spyOn(SearchRepository.prototype, 'setTextFields');
      let all;
      try {
        all = await engine.search(['public', 'users', 'admins'], { q: '*', rows: 0 });
        expect(remade).not.toHaveBeenCalled();
      } finally {
        remade.mockRestore();
      }
      expect(all.numFound).toBe(6000);
      const word = new SyntheticCatalogue().keywords[0]!;
      const found = await engine.search(['public', 'users', 'admins'], { q: word, rows: 0, facetFields: ['keywords'] });
      expect(found.numFound).toBeGreaterThan(100);
      // The last asset's title ends with its number: its text is in the full-text index.
      expect((await engine.search(['public', 'users', 'admins'], { q: '5999', rows: 0 })).numFound).toBe(1);

      // The index was loaded while the assets were written, and its snapshot holds the last change:
      // a server starts from it with nothing to catch up, and answers as a load from the database.
      const notes: string[] = [];
      const started = createSearchEngine(db, [], {
        snapshotFile: path.join(dataDir, SNAPSHOT_FILE),
        log: (message) => notes.push(message),
      });
      const fromSnapshot = await started.search(['public', 'users', 'admins'], {
        q: word,
        rows: 0,
        facetFields: ['keywords'],
      });
      const generation = await new SearchRepository(db).generation();
      expect(notes.join('\n')).toContain(`index snapshot of change ${generation} read`);
      expect(fromSnapshot).toEqual(found);

      // Synthetic visual signatures with the assets (issue #52): every tenth asset is a near copy of
      // the one before, found by similar: from the index and from its snapshot alike.
      const signed = await db.kysely
        .selectFrom('asset_signature')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(signed.n)).toBeGreaterThan(5000);
      const everyone = ['public', 'users', 'admins'];
      const alike = await engine.search(everyone, { q: 'similar:10', rows: 5 });
      // The copy first; then, by its part hashes, the asset after the copy when it has a picture (5
      // bits from a part: before any random hash that lies within 12 of one by chance).
      expect(alike.ids[0]).toBe(11);
      const cropSigned = await db.kysely
        .selectFrom('asset_signature')
        .select('asset_id')
        .where('asset_id', '=', 12)
        .executeTakeFirst();
      if (cropSigned) expect(alike.ids[1]).toBe(12);
      else expect(alike.ids).not.toContain(12);
      expect(await started.search(everyone, { q: 'similar:10', rows: 5 })).toEqual(alike);
      expect((await engine.search(everyone, { q: 'colour:#c04030', rows: 0 })).numFound).toBeGreaterThan(0);
    } finally {
      await db.close();
      await database.drop();
    }
  });

  it.each(dialects)(
    'writes accounts for the People list into %s, and more on a second run (issue #50)',
    async (dialect) => {
      const database = await createTestDatabase(dialect);
      const settings = loadSettings({
        DATA_DIR: path.join(dir, `accounts-${dialect}`),
        LOG_LEVEL: 'silent',
        ...(database.config.dialect === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
      });
      // More than one batch, and a second run numbers its accounts after the first's.
      await writeBenchAccounts(settings, 1200);
      await writeBenchAccounts(settings, 300);
      const db = await openDatabase(settings.database);
      try {
        const people = new PeopleRepository(db);
        expect(await people.count()).toBe(1500);
        const page = await people.list({ sort: 'name', order: 'asc', offset: 0, limit: 100, q: '.1500@' }, Date.now());
        expect(page.rows.map((r) => r.email)).toEqual([expect.stringMatching(/\.1500@example\.org$/)]);
        const sso = await people.list(
          { sort: 'name', order: 'asc', offset: 0, limit: 100, login: 'oidc:corp' },
          Date.now(),
        );
        expect(sso.rows.length).toBeGreaterThan(50);
        expect(sso.rows.every((r) => r.groups.every((g) => g.fromProvider))).toBe(true);
        const admins = await people.list(
          { sort: 'name', order: 'asc', offset: 0, limit: 100, group: 'admins' },
          Date.now(),
        );
        expect(admins.rows.length).toBeGreaterThan(0);
      } finally {
        await db.close();
        await database.drop();
      }
    },
  );
});
