import type { Command } from 'commander';
import { BackupError, makeBackup } from '../backup/backup.service.ts';
import { restoreBackup } from '../backup/restore.service.ts';
import { loadSettings, SettingsError, settingsLocations } from '../settings.ts';
import { bar } from './progress.ts';

const MB = 1024 ** 2;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/**
 * One progress bar per stage of a backup or restore, each started when its stage reports first;
 * `unit` says what the stage counts (bytes are shown in MB).
 */
function stageBars<S extends string>(labels: Record<S, { label: string; unit: 'bytes' | 'pages' | 'steps' }>) {
  let current: { stage: S; bar: ReturnType<typeof bar> } | undefined;
  const show = (unit: string, n: number) => (unit === 'bytes' ? Number((n / MB).toFixed(1)) : n);
  return {
    update(stage: S, done: number, total: number) {
      const { label, unit } = labels[stage];
      if (current?.stage !== stage) {
        current?.bar.stop();
        current = { stage, bar: bar(label) };
        current.bar.start(show(unit, total), 0, { detail: unit === 'bytes' ? 'MB' : unit });
      }
      current.bar.setTotal(show(unit, total));
      current.bar.update(show(unit, done));
    },
    stop: () => current?.bar.stop(),
  };
}

/** Runs a backup or restore; a refusal or failure is told on stderr and ends with exit code 1. */
async function reported(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (err instanceof BackupError || err instanceof SettingsError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = err instanceof SettingsError ? 2 : 1;
      return;
    }
    throw err;
  }
}

/** `vitrine backup <file>` and `vitrine restore <file>` (README "Backups"). */
export function backupCommands(program: Command): void {
  program
    .command('backup')
    .description(
      'write a backup archive (database, settings file, secret, uploaded config files and originals) while the portal runs',
    )
    .argument('<file>', 'the archive to write (a new file; .tar.gz)')
    .action(async (target: string) => {
      await reported(async () => {
        const settings = loadSettings();
        const bars = stageBars({
          database: { label: 'Database', unit: settings.database.dialect === 'sqlite' ? 'pages' : 'steps' },
          files: { label: 'Files', unit: 'bytes' },
          archive: { label: 'Archive', unit: 'bytes' },
        });
        const { settingsFile } = settingsLocations();
        const { mediaStores } = await import('../services.ts');
        const stores = mediaStores(settings);
        const result = await makeBackup(
          settings,
          settingsFile,
          target,
          (stage, done, total) => bars.update(stage, done, total),
          { uploads: stores.uploads, originals: stores.originals },
        ).finally(() => bars.stop());
        const { entries, database } = result.manifest;
        const count = (item: string) => entries.filter((e) => e.path.startsWith(`data/${item}/`)).length;
        process.stdout.write(
          `Backed up to ${result.file} (${mb(result.bytes)} in ${result.seconds.toFixed(1)} s): ` +
            `${database.dialect} database, ${entries.length} files (${count('config-files')} uploaded config files, ` +
            `${count('uploads')} uploaded originals).\n`,
        );
      });
    });

  program
    .command('restore')
    .description(
      'restore a backup archive into an empty data folder (SQLite) or an empty database (PostgreSQL, DATABASE_URL)',
    )
    .argument('<file>', 'the archive written by `vitrine backup`')
    .action(async (archive: string) => {
      await reported(async () => {
        const target = settingsLocations();
        const bars = stageBars({
          archive: { label: 'Reading', unit: 'bytes' },
          database: { label: 'Database', unit: 'steps' },
        });
        // Uploads go back into the bucket when one is configured, else into the data folder.
        const { mediaStores } = await import('../services.ts');
        const stores = target.mediaStore.kind === 's3' ? mediaStores(target) : undefined;
        const result = await restoreBackup(
          target,
          archive,
          (stage, done, total) => bars.update(stage, done, total),
          stores && { uploads: stores.uploads, originals: stores.originals },
        ).finally(() => bars.stop());
        const where =
          target.database.dialect === 'sqlite' ? target.dataDir : `${target.dataDir} and the database of DATABASE_URL`;
        process.stdout.write(
          `Restored the backup of ${result.manifest.createdAt} (Vitrine ${result.manifest.serverVersion}) into ` +
            `${where} in ${result.seconds.toFixed(1)} s. Thumbnails and previews of ${result.assets} assets are ` +
            'made again by the server after it starts.\n',
        );
      });
    });
}
