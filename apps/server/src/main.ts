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
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: settings.port, host: settings.host });
  app.log.info(`Vitrine is serving ${settings.publicUrl}/ (data in ${settings.dataDir}, ${settings.database.dialect})`);
}

await main();
