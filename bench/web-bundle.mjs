// The JavaScript a route of the web app loads, gzipped, from the build's chunk graph
// (apps/web/dist/.vite/manifest.json): the entry with its static imports plus the route's lazy chunk
// with its static imports. Run `npm run build` first. Usage: node bench/web-bundle.mjs [route-src…]
// WEB_DIST=<folder> reads another build (e.g. `npx vite build --outDir <folder>` in apps/web).
// --sources also prints, per route, what its gzipped bytes come from (package or source folder),
// estimated from the source maps: each chunk's gzipped size shared out by the bytes each source
// produced in it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.env.WEB_DIST ?? path.join(import.meta.dirname, '../apps/web/dist'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
/** Targets per route: the dashboard ≤ 200 KB, the search page and the admin area ≤ 280 KB gzipped. */
const targets = { dashboard: 200, search: 280, admin: 280 };

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

const showSources = process.argv.includes('--sources');
const routeArgs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const routes = routeArgs.length
  ? routeArgs
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

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The generated column and source index of each mapping segment, line by line (source map v3). */
function* segments(mappings) {
  let source = 0;
  let line = 0;
  for (const text of mappings.split(';')) {
    let column = 0;
    for (const segment of text.split(',')) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      yield { line, column, source: fields.length > 1 ? source : -1 };
    }
    line++;
  }
}

/** The package of a source in node_modules, else the contract, or the web app's folder (a feature's own). */
function owner(source) {
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = source.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const web = source.indexOf('src/');
  if (source.includes('packages/contract')) return 'packages/contract';
  if (web < 0) return '(generated)';
  const folders = source.slice(web).split('/');
  return `apps/web/${folders.slice(0, folders[1] === 'features' ? 3 : 2).join('/')}`;
}

function sources(files) {
  const totals = new Map();
  const add = (key, bytes) => totals.set(key, (totals.get(key) ?? 0) + bytes);
  for (const file of files) {
    const code = readFileSync(path.join(dist, file), 'utf8');
    const ratio = gz(file) / Buffer.byteLength(code);
    let map;
    try {
      map = JSON.parse(readFileSync(path.join(dist, `${file}.map`), 'utf8'));
    } catch {
      add('(no source map)', gz(file));
      continue;
    }
    const lineStart = [0];
    for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStart.push(i + 1);
    let previous;
    for (const seg of segments(map.mappings)) {
      const offset = lineStart[seg.line] + seg.column;
      if (previous) add(previous.key, (offset - previous.offset) * ratio);
      previous = { offset, key: seg.source >= 0 ? owner(map.sources[seg.source]) : '(generated)' };
    }
    if (previous) add(previous.key, (code.length - previous.offset) * ratio);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

if (showSources) {
  for (const route of routes) {
    const files = [...closure([entry, route])].map((k) => manifest[k].file);
    console.log(`\nwhere the gzipped KB of ${path.basename(route)} come from (estimated from source maps):`);
    for (const [key, bytes] of sources(files).filter(([, b]) => b >= 512)) {
      console.log(`  ${kb(bytes).padStart(6)}  ${key}`);
    }
  }
}
