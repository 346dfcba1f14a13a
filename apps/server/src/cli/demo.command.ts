import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_MANIFEST, writeDemoSidecars } from '../catalogue/demo-catalogue.ts';
import { derivativeRoot } from '../derivatives/storage.ts';
import type { Settings } from '../settings.ts';
import { withServices } from '../services.ts';
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

/** `vitrine demo [--reset] [--if-empty]`: builds the demo files under DATA_DIR/demo and imports them. */
export async function runDemo(settings: Settings, opts: { reset: boolean; ifEmpty: boolean }): Promise<number> {
  const media = path.join(settings.dataDir, 'demo');
  return withServices(settings, async (services) => {
    const repo = services.repositories.catalogue;
    if (opts.reset) {
      console.log('Removing the catalogue and its derivatives…');
      await repo.clear();
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
    const summary = await importWithProgress(services, media);
    printSummary(summary);
    const jobs = await makeDerivatives(services);
    if (jobs.failed) console.log(`  ${jobs.failed} derivative job(s) failed`);
    return summary.failed.length || jobs.failed ? 1 : 0;
  });
}
