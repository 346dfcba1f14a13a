import { buildApp } from './app.ts';
import { purgeSchedule } from './jobs/purge.jobs.ts';
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
  // Derivatives, web videos and other background work run in every server process; each asks for
  // the purge of expired rows (one run is queued however many ask).
  const worker = app.services.jobWorker({
    recurring: [purgeSchedule()],
    onSettled: (job, outcome, error) => {
      if (outcome !== 'done') app.log.warn({ job: job.key, outcome, error }, 'job did not succeed');
    },
    onScheduleFailed: (name, err) => app.log.warn({ job: name, err }, 'recurring job could not be queued'),
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
  app.log.info(`Vitrine is serving ${settings.publicUrl}/ (data in ${settings.dataDir}, ${settings.database.dialect})`);
}

await main();
