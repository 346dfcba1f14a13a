import type { FastifyInstance } from 'fastify';
import { MetricsRegistry } from '../adapters/prometheus.ts';
import type { Db } from '../db/database.ts';
import type { ConversionCache } from '../download/conversion-cache.ts';
import type { JobRepository } from '../jobs/job.repository.ts';
import type { WorkBudget } from '../jobs/work-budget.ts';
import type { EngineTimes } from '@vitrine/search-engine';
import type { SearchService } from '../search/search.service.ts';
import { workKinds, type WorkSettings } from '../settings.ts';

/** What the gauges read at scrape time: the parts of the composition root's services they need. */
export interface Watched {
  db: Pick<Db, 'pool'>;
  search: Pick<SearchService, 'indexLag'>;
  work: Pick<WorkBudget, 'stats' | 'shared'>;
  conversions: Pick<ConversionCache, 'usage'>;
  repositories: { jobs: Pick<JobRepository, 'queue'> };
  jobNames(): string[];
  settings: { file: { work: WorkSettings } };
}

/** Requests last from milliseconds (a search) to minutes (a zip of many originals). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** A part of one search: from well under a millisecond to the bounded cost of the worst query. */
const ENGINE_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The server's Prometheus metrics (README "Metrics"): made only when METRICS_PORT is set. Request
 * durations and search times are recorded as they happen; every other figure is read when
 * Prometheus scrapes, so metrics cost nothing between scrapes.
 */
export class Metrics {
  private readonly registry: MetricsRegistry;
  private readonly requests;
  private readonly engine;

  constructor(log: { warn(obj: object, msg: string): void }) {
    this.registry = new MetricsRegistry((collector, error) =>
      log.warn({ collector, error: error.message }, 'a metric could not be read; it is left out of this scrape'),
    );
    this.requests = this.registry.histogram(
      'vitrine_http_request_duration_seconds',
      'Time from a request until its answer was sent, by route pattern (not the address asked for) and status',
      ['method', 'route', 'status'],
      REQUEST_BUCKETS,
    );
    this.engine = this.registry.histogram(
      'vitrine_search_engine_seconds',
      "Time the search engine spent on a part of one search: text (matching the query and the caller's access), facets (filters and facet counts), sort (ranking and paging)",
      ['phase'],
      ENGINE_BUCKETS,
    );
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Records one answered request; `route` is the router's pattern, undefined when no route matched. */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.observe(seconds, { method, route: route ?? '(no route)', status });
  }

  /** Records the parts of one search (passed to the search service). */
  readonly engineTimes = (times: EngineTimes): void => {
    this.engine.observe(times.text / 1000, { phase: 'text' });
    this.engine.observe(times.facets / 1000, { phase: 'facets' });
    this.engine.observe(times.sort / 1000, { phase: 'sort' });
  };

  /** Adds the gauges read from the services at each scrape. */
  watch(services: Watched): void {
    // First: the pool is read before this scrape's own queries take connections from it.
    this.watchDatabase(services.db);
    this.watchSearchIndex(services.search);
    this.watchJobs(services);
    this.watchWork(services.work, services.settings.file.work);
    this.watchConversions(services.conversions);
  }

  private watchSearchIndex(search: Watched['search']): void {
    const r = this.registry;
    const changes = r.gauge(
      'vitrine_search_index_changes_behind',
      "Catalogue changes this process's search index has not applied yet (it catches up before each search)",
    );
    const seconds = r.gauge(
      'vitrine_search_index_behind_seconds',
      'Seconds since the search index last held the newest catalogue change; 0 when it holds it',
    );
    const snapshot = r.gauge(
      'vitrine_search_index_snapshot_age_seconds',
      'Age of the search index snapshot file in DATA_DIR (written after catching up when 10 minutes old)',
    );
    r.onScrape('search index', async () => {
      const lag = await search.indexLag();
      if (!lag) return;
      changes.set(lag.changes);
      seconds.set(lag.seconds);
      if (lag.snapshotSeconds !== undefined) snapshot.set(lag.snapshotSeconds);
    });
  }

  private watchJobs(services: Watched): void {
    const r = this.registry;
    const queued = r.gauge('vitrine_jobs_queued', 'Jobs waiting in the shared queue (due or retrying later), by kind', [
      'kind',
    ]);
    const running = r.gauge('vitrine_jobs_running', 'Jobs running in any process, by kind', ['kind']);
    const oldest = r.gauge(
      'vitrine_jobs_oldest_waiting_seconds',
      'Seconds the longest-waiting due job of a kind has waited for a worker; 0 when none is due',
      ['kind'],
    );
    r.onScrape('jobs', async () => {
      const now = Date.now();
      const byName = new Map((await services.repositories.jobs.queue()).map((q) => [q.name, q]));
      for (const kind of new Set([...services.jobNames(), ...byName.keys()])) {
        const q = byName.get(kind);
        queued.set(q?.queued ?? 0, { kind });
        running.set(q?.running ?? 0, { kind });
        oldest.set(q?.firstDue == null ? 0 : Math.max(0, now - q.firstDue) / 1000, { kind });
      }
    });
  }

  private watchWork(work: Watched['work'], settings: WorkSettings): void {
    const r = this.registry;
    const size = r.gauge('vitrine_work_pool_size', 'Slots of a kind of expensive work in this process', ['kind']);
    const busy = r.gauge('vitrine_work_pool_busy', 'Works of a kind running in this process', ['kind']);
    const waiting = r.gauge('vitrine_work_pool_waiting', 'Callers in this process waiting for a slot of a kind', [
      'kind',
    ]);
    const sharedSize = r.gauge('vitrine_work_shared_size', 'Slots of a kind of work for all processes together', [
      'kind',
    ]);
    const sharedBusy = r.gauge('vitrine_work_shared_busy', 'Slots of a kind held by any process now', ['kind']);
    r.onScrape('work pools', async () => {
      const stats = work.stats();
      for (const kind of workKinds) {
        size.set(stats[kind].size, { kind });
        busy.set(stats[kind].running, { kind });
        waiting.set(stats[kind].waiting, { kind });
        sharedSize.set(settings[kind].total, { kind });
      }
      const held = await work.shared();
      for (const kind of workKinds) sharedBusy.set(held[kind], { kind });
    });
  }

  private watchConversions(conversions: Watched['conversions']): void {
    const bytes = this.registry.gauge('vitrine_conversion_cache_bytes', 'Bytes of converted downloads in the cache');
    const files = this.registry.gauge('vitrine_conversion_cache_files', 'Converted downloads in the cache');
    this.registry.onScrape('conversion cache', async () => {
      const usage = await conversions.usage();
      bytes.set(usage.bytes);
      files.set(usage.files);
    });
  }

  /** PostgreSQL's pool; SQLite has one connection that answers synchronously (its waits are event-loop delay). */
  private watchDatabase(db: Watched['db']): void {
    const pool = db.pool;
    if (!pool) return;
    const r = this.registry;
    const max = r.gauge('vitrine_db_pool_max', 'Connections the PostgreSQL pool of this process may open');
    const open = r.gauge('vitrine_db_pool_connections', 'Connections of the PostgreSQL pool open now', ['state']);
    const waiting = r.gauge('vitrine_db_pool_waiting', 'Queries waiting for a connection of the PostgreSQL pool');
    r.onScrape('database pool', () => {
      const now = pool();
      max.set(now.max);
      open.set(now.idle, { state: 'idle' });
      open.set(now.total - now.idle, { state: 'busy' });
      waiting.set(now.waiting);
    });
  }

  /** Every metric in the Prometheus text format, read now. */
  async render(): Promise<string> {
    return this.registry.render();
  }
}

/** Records the duration of every answered request of `app` (by route pattern, never the raw address). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}
