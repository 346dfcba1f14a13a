import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the server tests' global setup compiled the server (global-setup.ts). */
export const serverBuildVariable = 'VITRINE_TEST_SERVER_BUILD';

const build = process.env[serverBuildVariable];
const sources = () => ({
  tsx: pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  main: path.resolve(import.meta.dirname, '../src/cli/main.ts'),
});
const cheap = (module: string) => ['--import', pathToFileURL(path.resolve(import.meta.dirname, module)).href];

/**
 * `vitrine` as arguments to `node`. In the tests it is the server the global setup compiled from
 * this run's sources, as bin/vitrine.mjs runs its build (test/runtime-load.test.ts checks that build
 * loads without tsx); elsewhere (bench/scale) the sources through tsx. Its passwords are hashed at
 * the tests' cost, as in the test runner: a module loaded first sets it (cheap-password-hashes.ts,
 * or the build's test-password-cost.mjs made from it), so the server itself needs no knob for it.
 */
export const vitrineCli = build
  ? [...cheap(path.join(build, 'test-password-cost.mjs')), path.join(build, 'cli/main.js')]
  : ['--import', sources().tsx, ...cheap('cheap-password-hashes.ts'), sources().main];

/** `vitrine` as production runs it: passwords at the production cost. */
export const vitrineCliAtProductionCost = build
  ? [path.join(build, 'cli/main.js')]
  : ['--import', sources().tsx, sources().main];
