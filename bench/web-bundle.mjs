// The JavaScript a route of the web app loads, gzipped, from the build's chunk graph
// (apps/web/dist/.vite/manifest.json): the entry with its static imports plus the route's lazy chunk
// with its static imports. Run `npm run build` first. Usage: node bench/web-bundle.mjs [route-src…]
// WEB_DIST=<folder> reads another build (e.g. `npx vite build --outDir <folder>` in apps/web).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.env.WEB_DIST ?? path.join(import.meta.dirname, '../apps/web/dist'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
/** Targets per route: the dashboard ≤ 200 KB, the search page ≤ 280 KB gzipped. */
const targets = { dashboard: 200, search: 280 };

function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

const gz = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes) => (bytes / 1024).toFixed(1);

const routes = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      'src/features/dashboard/DashboardPage.tsx',
      'src/features/search/SearchPage.tsx',
      'src/features/admin/AdminPage.tsx',
    ];
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entryChunks = closure([entry]);

console.log('| route chunk | files | raw KB | gzipped KB | target |');
console.log('|---|---|---|---|---|');
for (const route of routes) {
  if (!manifest[route]) throw new Error(`${route} is not a chunk of the build`);
  const chunks = closure([entry, route]);
  const files = [...chunks].map((k) => manifest[k].file);
  const raw = files.reduce((sum, f) => sum + readFileSync(path.join(dist, f)).length, 0);
  const zipped = files.reduce((sum, f) => sum + gz(f), 0);
  const limit = Object.entries(targets).find(([key]) => route.includes(`features/${key}/`))?.[1];
  const target = limit ? `≤ ${limit} KB ${zipped / 1024 <= limit ? 'met' : 'NOT met'}` : '';
  console.log(`| ${path.basename(route)} | ${files.length} | ${kb(raw)} | ${kb(zipped)} | ${target} |`);
}
const admin = Object.keys(manifest).filter((k) => k.includes('features/admin/'));
const leaked = admin.filter((k) => entryChunks.has(k));
console.log(`\nadmin chunks loaded outside the admin area: ${leaked.length ? leaked.join(', ') : 'none'}`);
console.log('\nlargest chunks of the dashboard route (gzipped KB):');
for (const k of [...closure([entry, 'src/features/dashboard/DashboardPage.tsx'])]
  .map((k) => ({ file: manifest[k].file, size: gz(manifest[k].file) }))
  .sort((a, b) => b.size - a.size)) {
  console.log(`  ${kb(k.size).padStart(6)}  ${k.file}`);
}
