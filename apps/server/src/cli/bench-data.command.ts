import cliProgress from 'cli-progress';
import type { Transaction } from 'kysely';
import { startThread } from '../adapters/thread.ts';
import { SIGNATURE_VERSION } from '../alike/signature.ts';
import { SyntheticAccounts } from '../bench-data/accounts.ts';
import { COLLECTION_COUNT, SyntheticCatalogue } from '../bench-data/synthetic.ts';
import type { AssetWrite, SavedAsset } from '../catalogue/catalogue.repository.ts';
import { newAssetWrite } from '../catalogue/new-asset.ts';
import { withBulkWrite } from '../db/deferred-indexes.ts';
import { BULK_BATCH, writeBatchSize } from '../db/serve-lock.ts';
import type { Database } from '../db/schema.ts';
import type { Settings } from '../settings.ts';
import { withServices } from '../services.ts';
import type { IndexerData, IndexerMessage } from './bench-data.index.ts';

/** Width of a progress bar's phase name. */
const PHASE = 14;

/** The indexing thread (bench-data.index.ts) as the writer sees it. */
interface Indexer {
  ready: Promise<void>;
  /** Resolves when the index and its snapshot are written, with the snapshot's seconds. */
  done: Promise<number>;
  tell(message: 'wrote' | 'ended'): void;
  stop(): Promise<void>;
}

function startIndexer(data: IndexerData, progress: (phase: string, done: number, total: number) => void): Indexer {
  const worker = startThread('bench-data.index', import.meta.url, { workerData: data });
  let ready!: () => void;
  let done!: (seconds: number) => void;
  let failed!: (err: Error) => void;
  const readyP = new Promise<void>((resolve) => (ready = resolve));
  const doneP = new Promise<number>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  worker.on('message', (m: IndexerMessage) => {
    if ('ready' in m) ready();
    else if ('phase' in m) progress(m.phase, m.done, m.total);
    else done(m.snapshotSeconds);
  });
  worker.on('error', (err) => failed(err));
  worker.on('exit', (code) => failed(new Error(`the indexing thread ended with ${code} before its index was written`)));
  // A writer that fails before the indexer is ready must not wait for it.
  const readyOrFailed = Promise.race([readyP, doneP.then(() => undefined)]);
  return {
    ready: readyOrFailed,
    done: doneP,
    tell: (message) => worker.postMessage(message),
    stop: async () => {
      await worker.terminate();
    },
  };
}

/**
 * `vitrine bench-data`: writes N synthetic, metadata-only assets into the configured database and
 * brings the search index up to date, with progress bars. For benchmarks and demos at scale. The
 * writes feed the full-text index in their own transactions; a second thread loads the in-memory
 * index as the writes commit and writes its snapshot, so the two cores write and index at once.
 */
export async function writeBenchData(settings: Settings, assets: number, seed = 42): Promise<void> {
  // Few assets per transaction while a server serves the SQLite database (db/serve-lock.ts).
  const chunkSize = await writeBatchSize(settings.database);
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
    const indexing = new Map<string, cliProgress.SingleBar>();
    const indexer = startIndexer({ settings, total: assets }, (phase, done, total) => {
      let bar = indexing.get(phase);
      if (!bar) {
        bar = bars.create(total, 0, { task: phase.padEnd(PHASE) });
        indexing.set(phase, bar);
      }
      bar.setTotal(total);
      bar.update(done);
    });
    try {
      await indexer.ready;
      const collections: number[] = [];
      for (let c = 0; c < COLLECTION_COUNT; c++)
        collections.push(await catalogueRows.ensureCollection(`/bench/${c + 1}`, `Bench collection ${c + 1}`, null));
      const catalogue = new SyntheticCatalogue(seed);
      const writing = bars.create(assets, 0, { task: 'writing assets'.padEnd(PHASE) });
      const started = Date.now();
      // A page cache of 2 GB: at a million assets the indexes of asset_value and the full-text index
      // outgrow 256 MB, and every write would read pages again.
      await services.repositories.search.withBulkCache(async () => {
        // Into an empty catalogue that no server reads, the lookup indexes are made after the rows.
        const deferLookups = chunkSize === BULK_BATCH;
        let indexesBar: cliProgress.SingleBar | undefined;
        const lookups = (done: number, total: number) => {
          indexesBar ??= bars.create(total, 0, { task: 'lookup indexes'.padEnd(PHASE) });
          indexesBar.update(done);
        };
        await withBulkWrite(services.db.kysely, services.db.dialect, { deferLookups, progress: lookups }, async () => {
          const chunk = (from: number) => {
            const now = Date.now();
            const n = Math.min(chunkSize, assets - from);
            return {
              now,
              writes: Array.from({ length: n }, (_, i) => newAssetWrite(catalogue.next(from + i, collections), now)),
            };
          };
          let next = chunk(0);
          for (let done = 0; done < assets; done += chunkSize) {
            const { now, writes } = next;
            const n = writes.length;
            // Metadata only: there are no files to make derivatives of. The texts go with the assets on
            // SQLite (one writer at a time); on PostgreSQL the indexing thread writes them meanwhile,
            // after the first write made the empty catalogue's full-text index current.
            const feedText = services.db.dialect === 'sqlite' || done === 0;
            const saving = catalogueRows.saveAssets(writes, {
              now,
              queueDerivatives: false,
              feedText,
              alongside: (trx, saved) => writeSignatures(trx, catalogue, writes, saved, done, now),
            });
            // The next chunk is made while PostgreSQL writes this one (SQLite has written it already).
            if (done + n < assets) next = chunk(done + n);
            await saving;
            indexer.tell('wrote');
            writing.update(done + n);
            // Lets the progress bar's timer run (SQLite answers synchronously).
            await new Promise((resolve) => setImmediate(resolve));
          }
        });
      }, 2048);
      await catalogueRows.analyze();
      const written = Date.now() - started;
      indexer.tell('ended');
      // The next server start reads the index from the snapshot the indexer wrote.
      await indexer.done;
      bars.stop();
      process.stderr.write(
        `Wrote ${assets} assets in ${(written / 1000).toFixed(1)} s; the index was ready ${((Date.now() - started - written) / 1000).toFixed(1)} s later.\n`,
      );
    } finally {
      bars.stop();
      await indexer.stop();
    }
  });
}

/** Signature rows per statement (eight bound values each). */
const SIGNATURE_ROWS = 1000;

/**
 * Synthetic visual signatures of the saved assets that would have a picture (not sounds or models),
 * in the assets' transaction (similar: and colour: in bench/search). `first` is the number of the
 * first write in the synthetic catalogue.
 */
async function writeSignatures(
  trx: Transaction<Database>,
  catalogue: SyntheticCatalogue,
  writes: readonly AssetWrite[],
  saved: readonly SavedAsset[],
  first: number,
  now: number,
): Promise<void> {
  const rows = writes.flatMap((w, k) => {
    const c = w.columns;
    if (c.asset_group === 'audio' || c.asset_group === '3d') return [];
    const s = catalogue.signature(first + k, c.pixel_x ?? null, c.pixel_y ?? null);
    return [{ asset_id: saved[k]!.id, sha256: c.sha256, ...s, version: SIGNATURE_VERSION, created_at: now }];
  });
  for (let i = 0; i < rows.length; i += SIGNATURE_ROWS) {
    await trx
      .insertInto('asset_signature')
      .values(rows.slice(i, i + SIGNATURE_ROWS))
      .execute();
  }
}

/** Accounts per transaction: a few thousand bound values per statement on either database. */
const ACCOUNT_BATCH = 500;

/**
 * `vitrine bench-data --accounts N`: writes N synthetic accounts (bench-data/accounts.ts) for the
 * People list's benchmarks (issue #50), numbered after the accounts already there, so it can be
 * run again to add more.
 */
export async function writeBenchAccounts(settings: Settings, accounts: number, seed = 42): Promise<void> {
  await withServices(settings, async (services) => {
    const people = services.repositories.people;
    const from = await people.count();
    const synthetic = new SyntheticAccounts(seed + from, settings.file.editing.group);
    const bar = new cliProgress.SingleBar(
      { format: ' {task} [{bar}] {percentage}% {value}/{total}', noTTYOutput: true, notTTYSchedule: 5000 },
      cliProgress.Presets.shades_classic,
    );
    bar.start(accounts, 0, { task: 'writing accounts' });
    const started = Date.now();
    try {
      for (let done = 0; done < accounts; done += ACCOUNT_BATCH) {
        const n = Math.min(ACCOUNT_BATCH, accounts - done);
        await people.insertBench(Array.from({ length: n }, (_, i) => synthetic.next(from + done + i)));
        bar.update(done + n);
      }
    } finally {
      bar.stop();
    }
    await people.analyze();
    process.stderr.write(`Wrote ${accounts} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  });
}
