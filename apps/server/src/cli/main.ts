import { constants } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import { endHelpers } from '../adapters/process.ts';
import { loadSettings, SettingsError, type Settings } from '../settings.ts';
import { backupCommands } from './backup.command.ts';
import { cacheCommand } from './cache.ts';
import { usersCommand } from './users.ts';
import { groupsCommand } from './groups.ts';

/** A count given on the command line: a whole number of at least 1. */
function positiveWhole(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

function settingsOrExit(): Settings {
  try {
    return loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/**
 * A command stopped by a signal first ends the helpers it started (exiftool): Node's default for a
 * signal ends the process at once and would leave them running. `serve` stops in its own way.
 */
function endHelpersOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      void endHelpers().finally(() => process.exit(128 + constants.signals[signal]));
    });
  }
}

/** The `vitrine` command: administration tasks that run beside or without the server. */
function buildCli(): Command {
  const program = new Command();
  program
    .name('vitrine')
    .description('Vitrine digital asset portal: serve, import and administer the catalogue.')
    .version(BACKEND_VERSION)
    .showHelpAfterError()
    .hook('preAction', (_program, command) => {
      if (command.name() !== 'serve') endHelpersOnSignals();
    });

  program
    .command('serve')
    .description('start the portal server (settings from the environment, see README)')
    .action(async () => {
      await import('../main.ts');
    });

  program
    .command('import')
    .description(
      'catalogue every supported file under a folder or bucket prefix (recursively) with its embedded and ' +
        'sidecar metadata; unchanged files are skipped, changed ones updated, removed ones marked gone',
    )
    .argument(
      '<source>',
      'folder to import, or s3://bucket/prefix of an object store (S3_ENDPOINT, S3_REGION, credentials: README); ' +
        'each folder becomes a collection',
    )
    .option('--no-derivatives', 'do not wait for thumbnails and previews (a running server makes them)')
    .action(async (source: string, opts: { derivatives: boolean }) => {
      const { importWithProgress, makeDerivatives, makeSignatures, printSummary } = await import('./import.command.ts');
      const { withServices } = await import('../services.ts');
      const { ImportInputError } = await import('../catalogue/import.service.ts');
      const settings = settingsOrExit();
      const failed = await withServices(settings, async (services) => {
        const summary = await importWithProgress(services, source).catch((err: unknown) => {
          if (!(err instanceof ImportInputError)) throw err;
          console.error(err.message);
          process.exit(1);
        });
        printSummary(summary);
        const jobs = opts.derivatives ? await makeDerivatives(services) : { failed: 0 };
        if (jobs.failed)
          console.log(`  ${jobs.failed} derivative job(s) failed; see the server log or re-run the import`);
        // Assets whose pictures were made before visual signatures were get theirs once.
        const signatures = await makeSignatures(services);
        if (signatures.signed || signatures.failed)
          console.log(
            `Visual signatures made for ${signatures.signed} earlier asset(s)` +
              (signatures.failed ? `, ${signatures.failed} could not be read (see the log)` : ''),
          );
        return summary.failed.length;
      });
      process.exitCode = failed ? 1 : 0;
    });

  program
    .command('demo')
    .description('build the demo catalogue from freely licensed files of Debian packages and import it')
    .option('--reset', 'remove the whole catalogue first and rebuild the demo')
    .option('--if-empty', 'do nothing when the catalogue already has assets (used by npm start)')
    .action(async (opts: { reset?: boolean; ifEmpty?: boolean }) => {
      const { runDemo } = await import('./demo.command.ts');
      process.exitCode = await runDemo(settingsOrExit(), {
        reset: Boolean(opts.reset),
        ifEmpty: Boolean(opts.ifEmpty),
      });
    });

  usersCommand(program);
  groupsCommand(program);
  cacheCommand(program);
  backupCommands(program);

  program
    .command('bench-data')
    .description('write N synthetic metadata-only assets (for benchmarks) and index them, and/or N synthetic accounts')
    .option('--assets <n>', 'how many assets', positiveWhole)
    .option('--accounts <n>', 'how many accounts (for the People list), added to those there', positiveWhole)
    .option('--data-dir <dir>', 'data folder (else DATA_DIR); DATABASE_URL chooses PostgreSQL')
    .option('--seed <n>', 'random seed', (v) => Number(v), 42)
    .action(async function (
      this: Command,
      options: { assets?: number; accounts?: number; dataDir?: string; seed: number },
    ) {
      if (options.assets === undefined && options.accounts === undefined) {
        this.error('error: give --assets <n>, --accounts <n> or both');
      }
      const { loadSettings } = await import('../settings.ts');
      const { writeBenchAccounts, writeBenchData } = await import('./bench-data.command.ts');
      const env = options.dataDir ? { ...process.env, DATA_DIR: options.dataDir } : process.env;
      if (options.assets !== undefined) await writeBenchData(loadSettings(env), options.assets, options.seed);
      if (options.accounts !== undefined) await writeBenchAccounts(loadSettings(env), options.accounts, options.seed);
    });

  return program;
}

await buildCli().parseAsync(process.argv);
