import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const main = path.resolve(import.meta.dirname, '../src/cli/main.ts');

/**
 * `vitrine` from its TypeScript sources, as arguments to `node`: tests run the sources through tsx,
 * not the build in dist/ that bin/vitrine.mjs runs (test/runtime-load.test.ts checks the build).
 * Its passwords are hashed at the tests' cost, as in the test runner: a module loaded first sets it
 * (cheap-password-hashes.ts), so the server itself needs no knob for it.
 */
export const vitrineCli = [
  '--import',
  tsx,
  '--import',
  pathToFileURL(path.resolve(import.meta.dirname, 'cheap-password-hashes.ts')).href,
  main,
];

/** `vitrine` from its sources as production runs them: passwords at the production cost. */
export const vitrineCliAtProductionCost = ['--import', tsx, main];
