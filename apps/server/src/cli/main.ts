import { Command, InvalidArgumentError } from 'commander';
import { BACKEND_VERSION } from '@vitrine/contract/version';

/** The `vitrine` command: administration tasks that run beside or without the server. */
export function buildCli(): Command {
  const program = new Command();
  program
    .name('vitrine')
    .description('Vitrine digital asset portal: serve, import and administer the catalogue.')
    .version(BACKEND_VERSION)
    .showHelpAfterError();

  program
    .command('serve')
    .description('start the portal server (settings from the environment, see README)')
    .action(async () => {
      await import('../main.ts');
    });

  program
    .command('bench-data')
    .description('write N synthetic metadata-only assets (for benchmarks) and index them')
    .requiredOption('--assets <n>', 'how many assets', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive whole number');
      return n;
    })
    .option('--data-dir <dir>', 'data folder (else DATA_DIR); DATABASE_URL chooses PostgreSQL')
    .option('--seed <n>', 'random seed', (v) => Number(v), 42)
    .action(async (options: { assets: number; dataDir?: string; seed: number }) => {
      const { loadSettings } = await import('../settings.ts');
      const { writeBenchData } = await import('../bench-data/bench-data.ts');
      const env = options.dataDir ? { ...process.env, DATA_DIR: options.dataDir } : process.env;
      await writeBenchData(loadSettings(env), options.assets, options.seed);
    });

  return program;
}

await buildCli().parseAsync(process.argv);
