import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** `vitrine serve` with its event loop watched (bench/search/serve-watched.mjs). */
export const watchedServer = path.join(root, 'bench/search/serve-watched.mjs');

/**
 * Builds the compiled server when it is missing or older than its sources, so the benches measure
 * what `npm start` runs. Not when VITRINE_SERVER_MAIN names another build to measure.
 */
export function ensureServerBuild(): void {
  if (process.env.VITRINE_SERVER_MAIN) return;
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
}
