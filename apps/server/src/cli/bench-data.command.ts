import cliProgress from 'cli-progress';
import { COLLECTION_COUNT, SyntheticCatalogue } from '../bench-data/synthetic.ts';
import { newAssetWrite } from '../catalogue/new-asset.ts';
import type { Settings } from '../settings.ts';
import { withServices } from '../services.ts';

const CHUNK = 5000;
/** Width of a progress bar's phase name. */
const PHASE = 14;

/**
 * `vitrine bench-data`: writes N synthetic, metadata-only assets into the configured database and
 * brings the search index up to date, with progress bars. For benchmarks and demos at scale.
 */
export async function writeBenchData(settings: Settings, assets: number, seed = 42): Promise<void> {
  await withServices(settings, async (services) => {
    const catalogueRows = services.repositories.catalogue;
    const bars = new cliProgress.MultiBar(
      {
        format: ' {task} [{bar}] {percentage}% {value}/{total} {eta_formatted} left',
        hideCursor: true,
        // Without a terminal (CI logs, a benchmark's pipe) a line every few seconds, not nothing.
        noTTYOutput: true,
        notTTYSchedule: 5000,
      },
      cliProgress.Presets.shades_classic,
    );
    try {
      const collections: number[] = [];
      for (let c = 0; c < COLLECTION_COUNT; c++)
        collections.push(await catalogueRows.ensureCollection(`/bench/${c + 1}`, `Bench collection ${c + 1}`, null));
      const catalogue = new SyntheticCatalogue(seed);
      const writing = bars.create(assets, 0, { task: 'writing assets'.padEnd(PHASE) });
      const started = Date.now();
      await services.repositories.search.withBulkCache(async () => {
        for (let done = 0; done < assets; done += CHUNK) {
          const n = Math.min(CHUNK, assets - done);
          const now = Date.now();
          const writes = Array.from({ length: n }, (_, i) => newAssetWrite(catalogue.next(done + i, collections), now));
          // Metadata only: there are no files to make derivatives of.
          await catalogueRows.saveAssets(writes, { now, queueDerivatives: false });
          writing.update(done + n);
          // Lets the progress bar's timer run (SQLite answers synchronously).
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      await catalogueRows.analyze();
      const written = Date.now() - started;
      const indexing = new Map<string, cliProgress.SingleBar>();
      await services.search.refresh((phase, done, total) => {
        let bar = indexing.get(phase);
        if (!bar) {
          bar = bars.create(total, 0, { task: phase.padEnd(PHASE) });
          indexing.set(phase, bar);
        }
        bar.update(done);
      });
      // The next server start reads the index from the snapshot instead of the database.
      await services.search.saveSnapshot();
      bars.stop();
      process.stderr.write(
        `Wrote ${assets} assets in ${(written / 1000).toFixed(1)} s; indexed in ${((Date.now() - started - written) / 1000).toFixed(1)} s.\n`,
      );
    } finally {
      bars.stop();
    }
  });
}
