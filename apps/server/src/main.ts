import { buildApp } from './app.ts';
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
  const app = await buildApp(settings);
  // Derivatives, web videos and other background work run in every server process.
  const worker = app.services.jobWorker({
    onSettled: (job, outcome, error) => {
      if (outcome !== 'done') app.log.warn({ job: job.key, outcome, error }, 'job did not succeed');
    },
  });
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await worker.stop();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: settings.port, host: settings.host });
  worker.start();
  // The search index loads now, not on the first search; `ready` answers 200 once it is loaded.
  const loading = performance.now();
  app.services.search.refresh().then(
    () => app.log.info(`search index loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`),
    (err: unknown) => app.log.error({ err }, 'the search index did not load; searches will try again'),
  );
  app.log.info(`Vitrine is serving ${settings.publicUrl}/ (data in ${settings.dataDir}, ${settings.database.dialect})`);
}

await main();
