import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Settings } from '../src/settings.ts';

export type DatabaseConfig = Settings['database'];

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/** Both dialects every repository test runs on. */
export const dialects = ['sqlite', 'postgres'] as const;

/** A fresh, empty database of the given dialect: a temporary SQLite file or a new PostgreSQL database. */
export async function createTestDatabase(
  dialect: DatabaseConfig['dialect'],
  /** PostgreSQL: what CREATE DATABASE adds after the name (another collation, say). */
  options = '',
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-sqlite-'));
    return {
      config: { dialect, file: path.join(dir, 'test.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = inject('postgresUrl');
  const name = `vitrine_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name} ${options}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    config: { dialect, url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
