import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mediaPatterns } from '@vitrine/contract/paths';
import { importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { vitrineCli } from '../../test/cli.ts';
import { dialects } from '../../test/databases.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { freePort } from '../../test/postgres-cluster.ts';
import { startServerProcess, tempDataDir, type ServerProcess } from '../../test/server-process.ts';
import { DERIVATIVES_JOB } from '../derivatives/derivative.jobs.ts';
import { PURGE_JOB } from '../jobs/purge.jobs.ts';
import { workKinds } from '../settings.ts';
import { listenForMetrics, type MetricsListener } from './metrics-listener.ts';

const API = '/assetportal/api/';

/** The samples of a Prometheus text answer, by `name{labels}` as written (labels in their order). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

/** The value of the one sample of `name` whose labels include all of `labels`. */
function sample(all: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const keys = [...all.keys()].filter((key) => {
    const [base, rest = ''] = key.split('{');
    return base === name && wanted.every((w) => rest.includes(w));
  });
  if (keys.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} names ${keys.length} samples`);
  return keys[0] === undefined ? undefined : all.get(keys[0]);
}

describe.each(dialects)('Prometheus metrics of a server on %s (README "Metrics")', (dialect) => {
  let t: TestApp;
  let listener: MetricsListener;
  let dir: string;
  let user: Record<string, string>;
  let scraped: Map<string, number>;
  let text: string;
  let downloadUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { METRICS_PORT: '0' } });
    listener = await listenForMetrics(t.app.metrics!, { host: '127.0.0.1', port: 0 }, console);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-metrics-'));
    await makeImage(path.join(dir, 'media', 'harbour.png'), { width: 640, height: 480, format: 'png' });
    // The import queues derivative jobs, which run here.
    const ids = await importWithDerivatives(t, path.join(dir, 'media'));
    user = (await signIn(t, { groups: ['users'] })).headers;
    const get = (url: string, query?: Record<string, string>) =>
      t.app.inject({ url: url.startsWith('/') ? url : API + url, headers: user, query });

    const search = await get('search', { solr_q: 'harbour', solr_facetfields: 'creator' });
    expect(search.statusCode).toBe(200);
    expect(search.json().response.numFound).toBe(1);
    const id = String(ids['harbour.png']);
    // The original file, and a conversion that lands in the conversion cache.
    downloadUrl = (await get('download/', { id, csetid: '0' })).json().url;
    expect((await get(downloadUrl)).statusCode).toBe(200);
    const converted = (await get('download/', { id, csetid: '1' })).json().url;
    expect((await get(converted)).statusCode).toBe(200);
    // A job waiting for a worker (none runs in this test).
    await t.app.services.repositories.jobs.enqueue({ name: PURGE_JOB, key: 'metrics-test', payload: {} });
    await t.app.services.search.saveSnapshot();

    const res = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    text = await res.text();
    scraped = samples(text);
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('times requests by route pattern and status, never by the address asked for', () => {
    const searches = sample(scraped, 'vitrine_http_request_duration_seconds_count', {
      method: 'GET',
      route: `${API}search`,
      status: '200',
    });
    expect(searches).toBeGreaterThanOrEqual(1);
    expect(
      sample(scraped, 'vitrine_http_request_duration_seconds_count', {
        route: mediaPatterns.download,
        status: '200',
      }),
    ).toBe(2);
    expect(
      sample(scraped, 'vitrine_http_request_duration_seconds_sum', { route: `${API}search`, status: '200' }),
    ).toBeGreaterThan(0);
    expect(text).not.toContain(downloadUrl.split('?')[0]);
  });

  it('times the parts of each search in the engine: text, facets and sort', () => {
    let total = 0;
    for (const phase of ['text', 'facets', 'sort']) {
      expect(sample(scraped, 'vitrine_search_engine_seconds_count', { phase }), phase).toBeGreaterThanOrEqual(1);
      total += sample(scraped, 'vitrine_search_engine_seconds_sum', { phase }) ?? NaN;
    }
    expect(total).toBeGreaterThan(0);
  });

  it('tells how far the search index is behind the catalogue, and the age of its snapshot', () => {
    expect(sample(scraped, 'vitrine_search_index_changes_behind')).toBe(0);
    expect(sample(scraped, 'vitrine_search_index_behind_seconds')).toBe(0);
    const age = sample(scraped, 'vitrine_search_index_snapshot_age_seconds');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);
  });

  it('tells the job queue by kind: waiting, running and the longest wait', () => {
    expect(sample(scraped, 'vitrine_jobs_queued', { kind: PURGE_JOB })).toBe(1);
    expect(sample(scraped, 'vitrine_jobs_running', { kind: PURGE_JOB })).toBe(0);
    const waited = sample(scraped, 'vitrine_jobs_oldest_waiting_seconds', { kind: PURGE_JOB });
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(waited).toBeLessThan(120);
    // Kinds with nothing queued are there too, at 0: the import's derivative jobs all ran.
    const kinds = [...scraped.keys()].filter((k) => k.startsWith('vitrine_jobs_queued{'));
    expect(kinds.length).toBeGreaterThan(3);
    expect(sample(scraped, 'vitrine_jobs_queued', { kind: DERIVATIVES_JOB })).toBe(0);
  });

  it('tells the work pools: slots, busy and waiting, in this process and in all', () => {
    for (const kind of workKinds) {
      expect(sample(scraped, 'vitrine_work_pool_size', { kind }), kind).toBe(t.settings.file.work[kind].perProcess);
      expect(sample(scraped, 'vitrine_work_pool_busy', { kind }), kind).toBe(0);
      expect(sample(scraped, 'vitrine_work_pool_waiting', { kind }), kind).toBe(0);
      expect(sample(scraped, 'vitrine_work_shared_size', { kind }), kind).toBe(t.settings.file.work[kind].total);
      expect(sample(scraped, 'vitrine_work_shared_busy', { kind }), kind).toBe(0);
    }
  });

  it('tells the size of the conversion cache', () => {
    expect(sample(scraped, 'vitrine_conversion_cache_files')).toBe(1);
    expect(sample(scraped, 'vitrine_conversion_cache_bytes')).toBeGreaterThan(0);
  });

  it("tells Node's event-loop delay and the process's memory", () => {
    expect(sample(scraped, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(scraped, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(scraped, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('tells the use of the database pool on PostgreSQL; SQLite has no pool to tell', () => {
    if (dialect === 'sqlite') {
      expect(sample(scraped, 'vitrine_db_pool_max')).toBeUndefined();
      return;
    }
    expect(sample(scraped, 'vitrine_db_pool_max')).toBe(10);
    const idle = sample(scraped, 'vitrine_db_pool_connections', { state: 'idle' }) ?? NaN;
    const busy = sample(scraped, 'vitrine_db_pool_connections', { state: 'busy' }) ?? NaN;
    expect(idle + busy).toBeGreaterThanOrEqual(1);
    expect(sample(scraped, 'vitrine_db_pool_waiting')).toBe(0);
  });
});

describe('the metrics listener of `vitrine serve` (docs/security.md)', () => {
  let server: ServerProcess | undefined;
  let data: ReturnType<typeof tempDataDir>;
  afterEach(async () => {
    await server?.kill();
    data.remove();
  });

  it('is off by default: /metrics on the portal port is 404 like any unknown path', async () => {
    data = tempDataDir();
    server = await startServerProcess({ DATA_DIR: data.dir });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect(server.log()).not.toContain('Prometheus metrics at');
  }, 90_000);

  it('with METRICS_PORT answers on its own port only; the portal port still answers 404', async () => {
    data = tempDataDir();
    const port = await freePort();
    server = await startServerProcess({ DATA_DIR: data.dir, METRICS_PORT: String(port) });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      'vitrine_http_request_duration_seconds_count{method="GET",route="/assetportal/api/health",status="200"}',
    );
    expect((await fetch(`http://127.0.0.1:${port}/assetportal/api/health`)).status).toBe(404);
    expect(server.log()).toContain(`Prometheus metrics at http://127.0.0.1:${port}/metrics`);
  }, 90_000);
});

describe('the `vitrine` commands', () => {
  it('start no metrics listener, even with METRICS_PORT set', async () => {
    // The port is taken: a command that tried to listen on it would fail.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const data = tempDataDir();
    try {
      const run = spawnSync(process.execPath, [...vitrineCli, 'cache'], {
        env: { ...process.env, DATA_DIR: data.dir, METRICS_PORT: String(port), LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Converted files: 0');
    } finally {
      taken.close();
      data.remove();
    }
  }, 60_000);
});
