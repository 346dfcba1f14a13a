import { buildApp } from './app.ts';
import { startCheckpointer, type Checkpointer } from './adapters/checkpointer.ts';
import { leaveCheckpointsToThread } from './db/database.ts';
import { holdServeLock, ServeLockError } from './db/serve-lock.ts';
import { trimConversionsSchedule } from './download/conversion-trim.jobs.ts';
import { foldDownloadsSchedule } from './download/download.jobs.ts';
import { aggregateInsightsSchedule } from './insights/insights.jobs.ts';
import { purgeSchedule } from './jobs/purge.jobs.ts';
import { TEXT_MERGE_STEP } from './search/sqlite-text.repository.ts';
import { listenForMetrics } from './metrics/metrics-listener.ts';
import { loadSettings, SettingsError } from './settings.ts';

async function main(): Promise<void> {
  let settings;
  try {
    settings = loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // One server process per SQLite database; PostgreSQL serves several (docs/scale-out.md).
  const lock =
    settings.database.dialect === 'sqlite'
      ? await holdServeLock(settings.database.file).catch((err: unknown) => {
          if (!(err instanceof ServeLockError)) throw err;
          console.error(err.message);
          process.exit(1);
        })
      : undefined;
  const app = await buildApp(settings);
  // SQLite's write-ahead log is copied into the database by a thread, not by this process's writes,
  // which also merges the full-text index's segments.
  let checkpointer: Checkpointer | undefined;
  if (settings.database.dialect === 'sqlite') {
    await leaveCheckpointsToThread(app.services.db);
    checkpointer = startCheckpointer(
      settings.database.file,
      (error) => app.log.warn({ error }, 'the write-ahead log was not copied into the database; trying again'),
      undefined,
      [TEXT_MERGE_STEP],
    );
  }
  app.addHook('onClose', async () => checkpointer?.stop());
  // Derivatives, web videos and other background work run in every server process; each asks for
  // the purge of expired rows, the counting of delivered downloads, the trim of the conversion
  // cache and the statistics' daily counts (one run of each is queued however many ask).
  const worker = app.services.jobWorker({
    recurring: [purgeSchedule(), foldDownloadsSchedule(), trimConversionsSchedule(), aggregateInsightsSchedule()],
    onSettled: (job, outcome, error) => {
      if (outcome !== 'done') app.log.warn({ job: job.key, outcome, error }, 'job did not succeed');
    },
    onScheduleFailed: (name, err) => app.log.warn({ job: name, err }, 'recurring job could not be queued'),
    onUnavailable: (error) => app.log.warn({ error: error.message }, 'the job queue is unreachable; trying again'),
  });
  // SIGTERM (a balancer draining this process, a deploy): stop taking requests at once, let running
  // ones finish, hand jobs that do not finish within the grace time back to the queue, then exit.
  // Connections still open after the grace time are cut; their clients see an incomplete answer.
  let stoppingJobs: Promise<void> | undefined;
  const stopJobs = () => (stoppingJobs ??= worker.stop({ handBackAfterMs: settings.shutdownGraceMs }));
  // Runs after the listener closed and before the services (the database) close.
  app.addHook('onClose', async () => stopJobs());
  app.addHook('onClose', async () => lock?.release());
  const stop = async (signal: string) => {
    app.log.info({ signal, graceMs: settings.shutdownGraceMs }, 'shutting down');
    void stopJobs();
    const cut = setTimeout(() => app.server.closeAllConnections(), settings.shutdownGraceMs);
    cut.unref();
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown did not complete cleanly');
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  // Metrics (METRICS_PORT) have a listener of their own; the portal's port never answers /metrics.
  const metrics =
    app.metrics && settings.metrics ? await listenForMetrics(app.metrics, settings.metrics, app.log) : undefined;
  app.addHook('onClose', async () => metrics?.close());
  await app.listen({ port: settings.port, host: settings.host });
  worker.start();
  // The search index loads now, not on the first search; `ready` answers 200 once it is loaded.
  const loading = performance.now();
  app.services.search.refresh().then(
    () => {
      app.log.info(`search index loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`);
      // The edits' write thread (SQLite) starts now, not in the first edit.
      app.services
        .warmWrites()
        .catch((err: unknown) => app.log.warn({ err }, 'the write thread did not start; the first edit starts it'));
    },
    (err: unknown) => app.log.error({ err }, 'the search index did not load; searches will try again'),
  );
  app.log.info(`Vitrine is serving ${settings.publicUrl}/ (data in ${settings.dataDir}, ${settings.database.dialect})`);
  if (metrics && settings.metrics) {
    app.log.info(`Prometheus metrics at http://${settings.metrics.host}:${metrics.port}/metrics`);
  }
}

await main();
