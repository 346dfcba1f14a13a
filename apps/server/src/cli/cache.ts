import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { withServices } from '../services.ts';
import { loadSettings } from '../settings.ts';

const GB = 1024 ** 3;
const size = (bytes: number) =>
  bytes >= GB ? `${(bytes / GB).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** Below this many files clearing is quick and needs no progress bar. */
const BAR_FROM_FILES = 100;

/** `vitrine cache [clear]`: the cache of converted downloads, its size and limit; clearing it. */
export function cacheCommand(program: Command): void {
  program
    .command('cache')
    .description(
      'show the cache of converted downloads (files, size, limit); "clear" removes every finished conversion',
    )
    .argument('[action]', 'clear')
    .action(async (action: string | undefined) => {
      if (action !== undefined && action !== 'clear') {
        process.stderr.write(`Unknown action "${action}"; the only one is "clear".\n`);
        process.exitCode = 2;
        return;
      }
      const settings = loadSettings();
      await withServices(settings, async ({ conversions }) => {
        if (action === 'clear') {
          const total = await conversions.usage();
          const bar =
            total.files >= BAR_FROM_FILES
              ? new SingleBar(
                  { format: 'Removing     {bar} {percentage}% | {value}/{total}', hideCursor: true },
                  Presets.shades_classic,
                )
              : undefined;
          bar?.start(total.files, 0);
          const removed = await conversions.trim(0, (done) => bar?.update(done.files));
          bar?.stop();
          process.stdout.write(`Removed ${removed.files} converted file(s), ${size(removed.bytes)}.\n`);
          return;
        }
        const { files, bytes } = await conversions.usage();
        const maxGB = settings.file.conversionCache.maxGB;
        const limit = await conversions.limit(maxGB);
        const source = maxGB === undefined ? "10 % of the data folder's disk, at most 20 GB" : 'conversionCache.maxGB';
        process.stdout.write(
          `Converted files: ${files}\nSize:            ${size(bytes)}\nLimit:           ${size(limit)} (${source})\n`,
        );
      });
    });
}
