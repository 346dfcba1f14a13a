import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `vitrine` from its TypeScript sources, as arguments to `node`: tests run the sources through tsx,
 * not the build in dist/ that bin/vitrine.mjs runs (test/runtime-load.test.ts checks the build).
 */
export const vitrineCli = [
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  path.resolve(import.meta.dirname, '../src/cli/main.ts'),
];
