import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { must } from '@vitrine/contract/must';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { SyntheticAccounts } from '../bench-data/accounts.ts';
import { openDatabase, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { PeopleRepository, type PeopleFilter } from './people.repository.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

const ACCOUNTS = 3_000;
const page = (f: Partial<PeopleFilter>): PeopleFilter => ({ sort: 'name', order: 'asc', offset: 0, limit: 50, ...f });

/**
 * The People list on PostgreSQL at size (issue #50, bench/people): a search finds its matches through
 * trigram indexes instead of reading every account, pages by last login walk an index, and what is
 * worked out per row of a page (the login block) is worked out for the page's rows only, not for
 * every account sorted.
 */
describe('the People list on postgres at size (issue #50)', () => {
  let test: TestDatabase;
  let db: Db;
  /** The same database through a connection that keeps every statement the repository sends. */
  let logged: Db;
  let sent: CompiledQuery[] = [];

  /** The plans of the statements one call of `list` sends, run (EXPLAIN ANALYZE) with `settings`. */
  const plansOf = async (filter: PeopleFilter, settings = '') => {
    sent = [];
    await new PeopleRepository(logged).list(filter, Date.now());
    const plans: PlanNode[][] = [];
    for (const query of sent) {
      await db.kysely.transaction().execute(async (trx) => {
        if (settings) await sql.raw(settings).execute(trx);
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
        );
        plans.push(nodes(must(rows[0], 'a query plan')['QUERY PLAN'][0].Plan));
      });
    }
    return plans;
  };

  beforeAll(async () => {
    test = await createTestDatabase('postgres');
    if (test.config.dialect !== 'postgres') throw new Error('a PostgreSQL database was asked for');
    db = await openDatabase(test.config);
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: test.config.url, max: 2 }) }),
      log: (event) => {
        if (event.level === 'query') sent.push(event.query);
      },
    });
    logged = { kysely, dialect: 'postgres', close: () => kysely.destroy() };
    const people = new PeopleRepository(db);
    const synthetic = new SyntheticAccounts(7);
    for (let done = 0; done < ACCOUNTS; done += 500) {
      await people.insertBench(Array.from({ length: 500 }, (_, i) => synthetic.next(done + i)));
    }
    await people.analyze();
  }, 60_000);
  afterAll(async () => {
    await logged?.close();
    await db?.close();
    await test?.drop();
  });

  it('finds text in names, display names and mail addresses through their trigram indexes', async () => {
    const [main] = await plansOf(page({ q: 'greta' }), 'set local enable_seqscan = off');
    const indexes = must(main, 'the list query')
      .map((n) => n['Index Name'])
      .filter((n) => n !== undefined);
    expect(indexes).toEqual(
      expect.arrayContaining([
        'user_account_name_trgm_idx',
        'user_account_email_trgm_idx',
        'user_account_display_trgm_idx',
      ]),
    );
    const found = await new PeopleRepository(db).list(page({ q: '.1234@' }), Date.now());
    expect(found.rows.map((r) => r.email)).toEqual([expect.stringMatching(/\.1234@example\.org$/)]);
  });

  it('pages by last login through an index in either order, never logged in counted as longest ago', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const [main] = await plansOf(page({ sort: 'lastLogin', order }));
      expect(
        must(main, 'the list query').map((n) => n['Node Type']),
        order,
      ).not.toContain('Sort');
    }
    const first = await new PeopleRepository(db).list(page({ sort: 'lastLogin', order: 'asc', limit: 3 }), Date.now());
    expect(first.rows.map((r) => r.lastLogin)).toEqual([null, null, null]);
    const newest = await new PeopleRepository(db).list(
      page({ sort: 'lastLogin', order: 'desc', limit: 3 }),
      Date.now(),
    );
    expect(newest.rows.every((r) => r.lastLogin !== null)).toBe(true);
  });

  it('reads login blocks for the rows of the page, not once for every account it sorts', async () => {
    for (const filter of [page({ sort: 'lastLogin', order: 'desc' }), page({ q: 'a' })]) {
      const plans = await plansOf(filter);
      for (const plan of plans) {
        for (const node of plan.filter((n) => n['Relation Name'] === 'login_attempt')) {
          expect(node['Actual Loops'], `${filter.sort} ${filter.q ?? ''}`).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});

describe('the People list on postgres where pg_trgm may not be created (issue #50)', () => {
  const suffix = randomBytes(5).toString('hex');
  const name = `vitrine_test_notrgm_${suffix}`;
  const role = `vitrine_owner_${suffix}`;
  const admin = inject('postgresUrl');
  const asAdmin = async (database: string, statements: string[]) => {
    const url = new URL(admin);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };

  afterAll(async () => {
    await asAdmin('postgres', [`drop database if exists ${name} with (force)`, `drop role if exists ${role}`]);
  });

  it('migrates without the trigram indexes, and the search still finds accounts', async () => {
    // A role that may make tables in its schema but not extensions in the database.
    await asAdmin('postgres', [`create role ${role} login`, `create database ${name}`]);
    await asAdmin(name, [`grant create on schema public to ${role}`]);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    url.username = role;
    const db = await openDatabase({ dialect: 'postgres', url: url.toString() });
    try {
      const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes
        where tablename = 'user_account' and indexname like '%trgm%'`.execute(db.kysely);
      expect(rows).toEqual([]);
      await new PeopleRepository(db).insertBench([new SyntheticAccounts(3).next(0), new SyntheticAccounts(4).next(1)]);
      const found = await new PeopleRepository(db).list(page({ q: '.2@example' }), Date.now());
      expect(found.rows.map((r) => r.email)).toEqual([expect.stringMatching(/\.2@example\.org$/)]);
    } finally {
      await db.close();
    }
  });
});
