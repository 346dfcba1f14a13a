import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { gate } from '../../test/gate.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { DomainError } from '../http/errors.ts';
import { buildServices } from '../services.ts';
import { loadSettings, type WorkSettings } from '../settings.ts';
import { WorkBudget, type WorkBudgetOptions } from './work-budget.ts';
import { WorkSlotRepository } from './work-slot.repository.ts';

const pools = (convert: { perProcess: number; total: number }): WorkSettings => ({
  convert,
  pdf_page: { perProcess: 1, total: 1 },
  model_view: { perProcess: 1, total: 1 },
  checksum: { perProcess: 1, total: 1 },
  thumbnail: { perProcess: 1, total: 1 },
  queue: 8,
  waitSeconds: 10,
  conversions: { accountShare: 0, guestMaxMinutes: 10, guestMaxGB: 2 },
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe.each(dialects)('work budget (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  const budgets: WorkBudget[] = [];

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
  });
  afterEach(async () => {
    for (const b of budgets.splice(0)) await b.close();
    await db.close();
    await database.drop();
  });

  /** A budget as one process has it: its own holder id, sharing the database with the others. */
  const budget = (settings: WorkSettings, options: WorkBudgetOptions = {}) => {
    const b = new WorkBudget(new WorkSlotRepository(db.kysely), settings, { pollMs: 20, ...options });
    budgets.push(b);
    return b;
  };
  const rows = () => db.kysely.selectFrom('work_slot').selectAll().execute();

  it('never runs more than the total across two processes, nor more than its own slots in one', async () => {
    const settings = pools({ perProcess: 2, total: 3 });
    const a = budget(settings);
    const b = budget(settings);
    const release = gate();
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await release.wait;
      running--;
    };
    const all = [a, b, a, b, a, b, a, b].map((x) => x.run('convert', 'job', work));
    await vi.waitFor(() => expect(a.stats().convert.running + b.stats().convert.running).toBe(3));
    // The waiting ones look for a slot every 20 ms; give them many chances to take one too many.
    await sleep(200);
    expect(running).toBe(3);
    expect(a.stats().convert.running).toBeLessThanOrEqual(2);
    expect(b.stats().convert.running).toBeLessThanOrEqual(2);
    expect(a.stats().convert.waiting + b.stats().convert.waiting).toBe(5);
    expect(await a.shared()).toMatchObject({ convert: 3 });
    release.open();
    await Promise.all(all);
    expect(most).toBe(3);
    expect(a.stats().convert).toEqual({ running: 0, waiting: 0, size: 2 });
    expect(await rows()).toEqual([]);
  });

  it('takes over the slot of a process that stopped renewing it once its lease ran out', async () => {
    const settings = { ...pools({ perProcess: 1, total: 1 }), waitSeconds: 0.1 };
    // A process that died while holding the only slot: its row stays until the lease runs out.
    await new WorkSlotRepository(db.kysely).take('convert', 1, 'dead-process', 500);
    const live = budget(settings);
    const refused = await live.run('convert', 'request', async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ id: 'busy' });
    let holderDuringWork = '';
    await live.run('convert', 'job', async () => {
      holderDuringWork = (await rows())[0]?.holder ?? '';
    });
    expect(holderDuringWork).toBe(live.holder);
    expect(await rows()).toEqual([]);
  });

  it.each([
    ['1', 1000],
    ['60', 30_000],
  ])(
    'holds its slots for JOB_LEASE_SECONDS=%s at most %i ms without renewal (docs/scale-out.md)',
    async (lease, most) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-lease-'));
      const services = buildServices(
        db,
        loadSettings({ DATA_DIR: dir, JOB_LEASE_SECONDS: lease, LOG_LEVEL: 'silent' }),
      );
      try {
        let expiresIn = 0;
        await services.work.run('convert', 'job', async () => {
          expiresIn = Number((await rows())[0]?.expires_at ?? 0) - Date.now();
        });
        expect(expiresIn).toBeGreaterThan(0);
        expect(expiresIn).toBeLessThanOrEqual(most);
        expect(expiresIn).toBeGreaterThan(most / 2);
      } finally {
        await services.work.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('renews the lease of a long work, so no other process takes its slot', async () => {
    const settings = pools({ perProcess: 1, total: 1 });
    const a = budget(settings, { leaseMs: 400 });
    const b = budget(settings, { leaseMs: 400 });
    const release = gate();
    const order: string[] = [];
    const long = a.run('convert', 'job', async () => {
      order.push('a starts');
      await release.wait;
      order.push('a ends');
    });
    await vi.waitFor(() => expect(order).toEqual(['a starts']));
    const other = b.run('convert', 'job', async () => {
      order.push('b runs');
    });
    // Five leases long: without renewal b would have taken the slot after the first.
    await sleep(2000);
    expect(order).toEqual(['a starts']);
    const [row] = await rows();
    expect(row?.holder).toBe(a.holder);
    expect(Number(row?.expires_at)).toBeGreaterThan(Date.now());
    release.open();
    await Promise.all([long, other]);
    expect(order).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it('answers 429 busy with Retry-After to a request that finds the line full', async () => {
    const a = budget({ ...pools({ perProcess: 1, total: 2 }), queue: 1 });
    const release = gate();
    const first = a.run('convert', 'request', () => release.wait);
    const second = a.run('convert', 'request', async () => 'second ran');
    await vi.waitFor(() => expect(a.stats().convert).toEqual({ running: 1, waiting: 1, size: 1 }));
    const third = await a.run('convert', 'request', async () => 'third ran').catch((e: unknown) => e);
    expect(third).toBeInstanceOf(DomainError);
    const error = third as DomainError;
    expect(error.id).toBe('busy');
    expect(error.status).toBe(429);
    expect(error.headers['Retry-After']).toBe('10');
    expect(error.message).toBe('The server is busy with other conversions; please try again in 10 seconds.');
    release.open();
    await first;
    expect(await second).toBe('second ran');
  });

  it('answers busy to a request that waited the longest wait for a slot', async () => {
    const a = budget({ ...pools({ perProcess: 1, total: 1 }), waitSeconds: 0.2 });
    const release = gate();
    const first = a.run('convert', 'request', () => release.wait);
    const waited = await a.run('convert', 'request', async () => 'ran').catch((e: unknown) => e);
    expect(waited).toMatchObject({ id: 'busy', headers: { 'Retry-After': '1' } });
    expect(a.stats().convert).toEqual({ running: 1, waiting: 0, size: 1 });
    release.open();
    await first;
  });

  it('lets background jobs wait as long as it takes, however long the line, behind requests', async () => {
    const a = budget({ ...pools({ perProcess: 1, total: 1 }), queue: 0, waitSeconds: 0.05 });
    const release = gate();
    const order: string[] = [];
    const first = a.run('convert', 'job', async () => {
      await release.wait;
      order.push('first');
    });
    const jobs = [1, 2, 3].map((n) => a.run('convert', 'job', async () => void order.push(`job ${n}`)));
    await vi.waitFor(() => expect(a.stats().convert.waiting).toBe(3));
    // A line of length 0 refuses requests at once; jobs are not refused.
    await expect(a.run('convert', 'request', async () => 'ran')).rejects.toMatchObject({ id: 'busy' });
    await sleep(200);
    release.open();
    await Promise.all([first, ...jobs]);
    expect(order).toEqual(['first', 'job 1', 'job 2', 'job 3']);
  });

  it('lets a waiting request in before waiting background jobs', async () => {
    const a = budget(pools({ perProcess: 1, total: 1 }));
    const release = gate();
    const order: string[] = [];
    const first = a.run('convert', 'job', () => release.wait);
    const job = a.run('convert', 'job', async () => void order.push('job'));
    const request = a.run('convert', 'request', async () => void order.push('request'));
    await vi.waitFor(() => expect(a.stats().convert.waiting).toBe(2));
    release.open();
    await Promise.all([first, job, request]);
    expect(order).toEqual(['request', 'job']);
  });

  /** Pools where `accountShare` of the conversion slots is kept for account holders. */
  const withShare = (convert: { perProcess: number; total: number }, accountShare: number): WorkSettings => ({
    ...pools(convert),
    waitSeconds: 0.3,
    conversions: { accountShare, guestMaxMinutes: 10, guestMaxGB: 2 },
  });

  it('keeps half the conversion slots of all processes for account holders: guests and jobs share the rest', async () => {
    const settings = withShare({ perProcess: 1, total: 4 }, 0.5);
    const [a, b, c] = [budget(settings), budget(settings), budget(settings)];
    const release = gate();
    // Two guests in two processes take the two open slots; a third guest, in a third process, is refused.
    const guests = [a, b].map((x) => x.run('convert', 'request', () => release.wait));
    await vi.waitFor(async () => expect(await a.shared()).toMatchObject({ convert: 2 }));
    await expect(c.run('convert', 'request', async () => 'ran')).rejects.toMatchObject({ id: 'busy' });
    // A background job waits for an open slot too.
    let jobRan = false;
    const job = c.run('convert', 'job', async () => void (jobRan = true));
    // Account holders run at once, in the processes whose slots guests hold as well.
    const accounts = await Promise.all(
      [a, b].map((x) => x.run('convert', 'request', async () => 'account ran', { forAccount: true })),
    );
    expect(accounts).toEqual(['account ran', 'account ran']);
    expect(jobRan).toBe(false);
    const held = await rows();
    expect(held.map((r) => r.slot).sort()).toEqual([2, 3]);
    release.open();
    await Promise.all([...guests, job]);
    expect(jobRan).toBe(true);
  });

  it('keeps at least one slot for account holders; with every slot kept, guests are told to log in', async () => {
    const one = budget(withShare({ perProcess: 1, total: 2 }, 0.1));
    const release = gate();
    const guest = one.run('convert', 'request', () => release.wait);
    await vi.waitFor(() => expect(one.stats().convert.running).toBe(1));
    await expect(one.run('convert', 'request', async () => 'ran')).rejects.toMatchObject({ id: 'busy' });
    expect(await one.run('convert', 'request', async () => 'ran', { forAccount: true })).toBe('ran');
    release.open();
    await guest;

    const all = budget(withShare({ perProcess: 1, total: 1 }, 0.5));
    await expect(all.run('convert', 'request', async () => 'ran')).rejects.toMatchObject({
      id: 'forbidden',
      message: 'On this portal, conversions are made for signed-in users only; please log in.',
    });
    expect(await all.run('convert', 'job', async () => 'job ran')).toBe('job ran');
    expect(await all.run('convert', 'request', async () => 'ran', { forAccount: true })).toBe('ran');
  });

  it('lets a waiting caller leave the line when it goes away, and gives its place to the next', async () => {
    const a = budget({ ...pools({ perProcess: 1, total: 1 }), waitSeconds: 30 });
    const release = gate();
    const first = a.run('convert', 'request', () => release.wait);
    const gone = new AbortController();
    const leaving = a.run('convert', 'request', async () => 'ran', { signal: gone.signal }).catch((e: unknown) => e);
    const staying = a.run('convert', 'request', async () => 'stayed');
    await vi.waitFor(() => expect(a.stats().convert).toMatchObject({ running: 1, waiting: 2 }));
    gone.abort();
    expect(await leaving).toMatchObject({ id: 'unavailable' });
    expect(a.stats().convert.waiting).toBe(1);
    release.open();
    await first;
    expect(await staying).toBe('stayed');
  });

  it('gives its shared slots back when it closes, and refuses its waiting callers', async () => {
    const settings = pools({ perProcess: 1, total: 1 });
    const a = budget(settings, { leaseMs: 60_000 });
    const b = budget(settings);
    const release = gate();
    const first = a.run('convert', 'job', () => release.wait);
    const waiting = a.run('convert', 'request', async () => 'ran').catch((e: unknown) => e);
    await vi.waitFor(() => expect(a.stats().convert.waiting).toBe(1));
    await a.close();
    expect(await waiting).toMatchObject({ id: 'busy' });
    expect(await rows()).toEqual([]);
    // Another process need not wait a minute for the lease of the stopped one.
    expect(await b.run('convert', 'request', async () => 'b ran')).toBe('b ran');
    release.open();
    await first;
  });
});
