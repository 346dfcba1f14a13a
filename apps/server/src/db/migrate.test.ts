import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase } from './database.ts';
import { migrations, renamedMigrations } from './migrate.ts';

const folder = path.join(import.meta.dirname, 'migrations');
const files = readdirSync(folder).filter((f) => f.endsWith('.ts'));

describe('migration names', () => {
  it('are <YYYYMMDDhhmm>_<name>.ts, each with a time of its own, and all listed in migrate.ts', () => {
    expect(files.filter((f) => !/^\d{12}_[a-z][a-z0-9_]*\.ts$/.test(f))).toEqual([]);
    const times = files.map((f) => f.slice(0, 12));
    expect(times.filter((t, i) => times.indexOf(t) !== i)).toEqual([]);
    expect(Object.keys(migrations).sort()).toEqual(files.map((f) => f.replace(/\.ts$/, '')).sort());
  });

  it('map every old name to a listed one', () => {
    for (const [from, to] of Object.entries(renamedMigrations)) {
      expect(migrations[from]).toBeUndefined();
      expect(migrations[to]).toBeDefined();
    }
  });
});

/** The migrations as a database migrated before the renaming recorded them, in their old order. */
function oldNames(only?: string[]): Record<string, Migration> {
  const back = Object.fromEntries(Object.entries(renamedMigrations).map(([from, to]) => [to, from]));
  const entries = Object.entries(migrations).map(([name, m]) => [back[name] ?? name, m] as const);
  return Object.fromEntries(entries.filter(([name]) => !only || only.includes(name)));
}

describe.each(dialects)('an existing database on %s', (dialect) => {
  let test: TestDatabase;
  afterEach(async () => test.drop());

  /** Migrates with these migrations only, then runs `then` on the database as they left it. */
  const migrateAsBefore = async (list: Record<string, Migration>, then?: (db: Kysely<unknown>) => Promise<void>) => {
    const db =
      test.config.dialect === 'sqlite'
        ? new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(test.config.file) }) })
        : new Kysely<unknown>({
            dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: test.config.url }) }),
          });
    try {
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => list } }).migrateToLatest();
      expect(error).toBeUndefined();
      await then?.(db);
    } finally {
      await db.destroy();
    }
  };
  const recorded = async () => {
    const db = await openDatabase(test.config);
    try {
      const rows = await db.kysely
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .orderBy('name' as never)
        .execute();
      return (rows as { name: string }[]).map((r) => r.name);
    } finally {
      await db.close();
    }
  };

  it('migrated under the old names starts without running a migration again', async () => {
    test = await createTestDatabase(dialect);
    await migrateAsBefore(oldNames());
    // A second run of any migration would fail: its tables exist.
    expect(await recorded()).toEqual(Object.keys(migrations).sort());
  });

  it('keeps its download log as counted downloads when downloads become rows per delivery', async () => {
    test = await createTestDatabase(dialect);
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '202611251700'));
    await migrateAsBefore(before, async (db) => {
      await sql`insert into download_log (user_id, user_name, asset_id, cset_id, kind, created_at)
        values (7, 'anna', 41, 0, 'single', 1000), (null, null, 42, 1, 'zip', 2000)`.execute(db);
    });
    const db = await openDatabase(test.config);
    try {
      const rows = await db.kysely.selectFrom('download').selectAll().orderBy('id').execute();
      expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
        {
          user_id: 7,
          user_name: 'anna',
          share_id: null,
          cset_id: 0,
          kind: 'single',
          asset_ids: '41',
          asset_count: 1,
          created_at: 1000,
          counted_at: 1000,
        },
        {
          user_id: null,
          user_name: null,
          share_id: null,
          cset_id: 1,
          kind: 'zip',
          asset_ids: '42',
          asset_count: 1,
          created_at: 2000,
          counted_at: 2000,
        },
      ]);
    } finally {
      await db.close();
    }
  });

  it('keeps its full-text index when SQLite stops keeping a copy of the texts (PostgreSQL: unchanged)', async () => {
    test = await createTestDatabase(dialect);
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '202612060700'));
    await migrateAsBefore(before, async (db) => {
      await (
        dialect === 'sqlite'
          ? sql`insert into search_fts (rowid, title, body) values (41, 'harbour', 'harbour at dawn'), (42, 'zebra', 'zebra plains')`
          : sql`insert into search_document (asset_id, title, body) values
            (41, to_tsvector('simple', 'harbour'), to_tsvector('simple', 'harbour at dawn')),
            (42, to_tsvector('simple', 'zebra'), to_tsvector('simple', 'zebra plains'))`
      ).execute(db);
    });
    const db = await openDatabase(test.config);
    try {
      const match = async (word: string) =>
        (dialect === 'sqlite'
          ? await sql<{ id: number }>`select rowid as id from search_fts where search_fts match ${word}`.execute(
              db.kysely,
            )
          : await sql<{ id: number }>`select asset_id as id from search_document
              where body @@ to_tsquery('simple', ${word}) order by asset_id`.execute(db.kysely)
        ).rows.map((r) => Number(r.id));
      expect(await match('dawn')).toEqual([41]);
      expect(await match(dialect === 'sqlite' ? '"zeb"*' : 'zeb:*')).toEqual([42]);
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'search_fts'`.execute(
          db.kysely,
        );
        expect(rows[0]?.sql).toContain('contentless_delete');
        await sql`delete from search_fts where rowid = 41`.execute(db.kysely);
        expect(await match('harbour')).toEqual([]);
      }
    } finally {
      await db.close();
    }
  });

  it('migrated between migrations that shared a time starts and gets the missing ones', async () => {
    test = await createTestDatabase(dialect);
    // As a branch had it: search, but neither access nor jobs, which sort before it.
    await migrateAsBefore(
      oldNames(['202611220000_config', '202611220100_catalogue', '202611220200_identity', '202611220300_search']),
    );
    expect(await recorded()).toEqual(Object.keys(migrations).sort());
    const db = await openDatabase(test.config);
    try {
      await db.kysely.selectFrom('job').select('id').execute();
      await db.kysely.selectFrom('login_attempt').select('name').execute();
    } finally {
      await db.close();
    }
  });
});
