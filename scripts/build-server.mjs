// `npm run build:server`: compiles the server and the contract to JavaScript in apps/server/dist, which
// `npm start` and `vitrine` run; `npm run dev` and the tests run the TypeScript sources.
//
// tsc writes each file as it is (`.ts` imports become `.js`); it does not check types here, which
// `npm run typecheck` does. The contract goes to dist/node_modules/@vitrine/contract, where Node looks
// first from the compiled server, so every other tool (Vite, Vitest, tsx, tsc) keeps resolving
// @vitrine/contract to its sources. build.json is written last: without it there is no build.
//
//   --if-stale  build only when the build is missing or older than its sources
//   --out DIR   build into DIR instead (runtime-load.test.ts); it must lie inside the clone, so that
//               the compiled modules find node_modules
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root, run, serverBuildMissing, serverDist } from './setup-lib.mjs';

const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean' }, out: { type: 'string' } } });
if (values['if-stale'] && !serverBuildMissing()) process.exit(0);

const out = values.out ? path.resolve(values.out) : serverDist;
const contract = path.join(out, 'node_modules/@vitrine/contract');
const tsc = path.join(root, 'node_modules/.bin/tsc');
const started = Date.now();

rmSync(out, { recursive: true, force: true });
run(tsc, ['-p', 'apps/server/tsconfig.build.json', '--outDir', out]);
run(tsc, ['-p', 'packages/contract/tsconfig.build.json', '--outDir', contract]);
const manifest = { name: '@vitrine/contract', private: true, type: 'module', exports: { './*': './*.js' } };
writeFileSync(path.join(contract, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(path.join(out, 'build.json'), `${JSON.stringify({ built: new Date().toISOString() }, null, 2)}\n`);
console.log(`The server is built in ${path.relative(root, out)} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
