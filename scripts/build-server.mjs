// `npm run build:server`: compiles the server, the contract and the search engine to JavaScript in
// apps/server/dist, which `npm start` and `vitrine` run; `npm run dev` and the tests run the
// TypeScript sources.
//
// tsc writes each file as it is (`.ts` imports become `.js`); it does not check types here, which
// `npm run typecheck` does. The packages go to dist/node_modules/@vitrine/<name>, where Node looks
// first from the compiled server, so every other tool (Vite, Vitest, tsx, tsc) keeps resolving
// them to their sources. build.json is written last: without it there is no build.
//
//   --if-stale  build only when the build is missing or older than its sources
//   --out DIR   build into DIR instead (the server tests' global setup); it must lie inside the
//               clone, so that the compiled modules find node_modules
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root, run, serverBuildMissing, serverDist } from './setup-lib.mjs';

const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean' }, out: { type: 'string' } } });
const out = values.out ? path.resolve(values.out) : serverDist;
if (values['if-stale'] && !serverBuildMissing(out)) process.exit(0);
/** The workspace packages the server imports, each with the exports of its compiled form. */
const packages = [
  { dir: 'packages/contract', name: '@vitrine/contract', exports: { './*': './*.js' } },
  { dir: 'packages/search-engine', name: '@vitrine/search-engine', exports: { '.': './index.js' } },
];
const tsc = path.join(root, 'node_modules/.bin/tsc');
const started = Date.now();

rmSync(out, { recursive: true, force: true });
run(tsc, ['-p', 'apps/server/tsconfig.build.json', '--outDir', out]);
for (const { dir, name, exports } of packages) {
  const target = path.join(out, 'node_modules', name);
  run(tsc, ['-p', `${dir}/tsconfig.build.json`, '--outDir', target]);
  const manifest = { name, private: true, type: 'module', exports };
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
writeFileSync(path.join(out, 'build.json'), `${JSON.stringify({ built: new Date().toISOString() }, null, 2)}\n`);
console.log(`The server is built in ${path.relative(root, out)} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
