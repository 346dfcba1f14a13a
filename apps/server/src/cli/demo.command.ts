import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertImage } from '../adapters/media.ts';
import type { Auth } from '../auth/caller.ts';
import { DEMO_COLLECTIONS, DEMO_HERO, DEMO_MANIFEST, writeDemoSidecars } from '../catalogue/demo-catalogue.ts';
import { writeBatchSize } from '../db/serve-lock.ts';
import { derivativeRoot } from '../derivatives/storage.ts';
import type { Settings } from '../settings.ts';
import { withServices, type Services } from '../services.ts';
import { importWithProgress, makeDerivatives, printSummary } from './import.command.ts';

const buildScript = path.resolve(import.meta.dirname, '../../../../scripts/demo-media.sh');

function runScript(out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'bash',
      [buildScript, out, ...(process.env.VITRINE_DEMO_CACHE ? [process.env.VITRINE_DEMO_CACHE] : [])],
      {
        stdio: 'inherit',
      },
    );
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `building the demo media failed (exit ${code}). It downloads Debian packages with apt-get; ` +
                'if apt-get download cannot find them, run `apt-get update` once and try again.',
            ),
          ),
    );
  });
}

/**
 * Creates the demo's collections before the import, so the dashboard (which lists collections in
 * the order they were made) shows the curated ones first, then one per folder, and the format
 * test files last.
 */
async function prepareCollections(services: Services, media: string): Promise<void> {
  const repo = services.repositories.catalogue;
  const named = async (name: string) => repo.ensureCollection(`#${name}`, name, null);
  for (const name of DEMO_COLLECTIONS.slice(0, -1)) await named(name);
  const lines = (await readFile(path.join(media, DEMO_MANIFEST), 'utf8')).trim().split('\n').slice(1);
  const base = path.basename(media);
  const folders = [...new Set(lines.map((l) => path.posix.dirname(l.split('\t')[0] ?? '')))].sort();
  for (const folder of folders) {
    let parent: number | null = null;
    let acc = '';
    for (const part of [base, ...folder.split('/').filter((p) => p !== '.')]) {
      acc = acc ? `${acc}/${part}` : part;
      parent = await repo.ensureCollection(acc, part, parent);
    }
  }
  const last = DEMO_COLLECTIONS.at(-1);
  if (last !== undefined) await named(last);
}

/** An administrator acting for the command line. */
const commandLine: Auth = {
  userId: null,
  name: 'vitrine demo',
  groups: [],
  isAssetUser: false,
  isGuiAdmin: true,
  sessionId: null,
  locale: null,
  expired: false,
};

/** Puts one of the demo's best photos into the dashboard's hero, unless an admin chose one. */
async function heroImage(services: Services, media: string): Promise<void> {
  if ((await services.config.availableFiles()).dashboardHero) return;
  const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-hero-'));
  try {
    const out = path.join(dir, 'hero.webp');
    await convertImage(path.join(media, DEMO_HERO), out, {
      format: 'webp',
      maxSize: 1920,
      quality: 70,
      colourSpace: 'srgb',
      keepMetadata: false,
    });
    await services.configAdmin.upload(commandLine, { name: 'dashboardHero' }, () => readFile(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `vitrine demo [--reset] [--if-empty]`: builds the demo files under DATA_DIR/demo and imports them. */
export async function runDemo(settings: Settings, opts: { reset: boolean; ifEmpty: boolean }): Promise<number> {
  const media = path.join(settings.dataDir, 'demo');
  return withServices(settings, async (services) => {
    const repo = services.repositories.catalogue;
    if (opts.reset) {
      console.log('Removing the catalogue and its derivatives…');
      // Few assets per transaction while a server serves the SQLite database (db/serve-lock.ts).
      await repo.clear(await writeBatchSize(settings.database));
      await rm(derivativeRoot(settings.dataDir), { recursive: true, force: true });
      await rm(media, { recursive: true, force: true });
    } else if (opts.ifEmpty) {
      const n = await repo.countAssets();
      if (n > 0) return 0;
      console.log('The catalogue is empty: building the demo catalogue (first start)…');
    }
    if (!existsSync(path.join(media, DEMO_MANIFEST))) {
      await rm(media, { recursive: true, force: true });
      await runScript(media);
    }
    const files = await writeDemoSidecars(media);
    console.log(`Demo media: ${files} files in ${media}`);
    await prepareCollections(services, media);
    await heroImage(services, media);
    const summary = await importWithProgress(services, media);
    printSummary(summary);
    const jobs = await makeDerivatives(services);
    if (jobs.failed) console.log(`  ${jobs.failed} derivative job(s) failed`);
    return summary.failed.length || jobs.failed ? 1 : 0;
  });
}
