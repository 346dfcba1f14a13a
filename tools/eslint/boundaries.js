// Import rules of ARCHITECTURE §2, checked on every import, export-from and dynamic import.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const packageRoots = [
  'packages/contract',
  'packages/search-engine',
  'apps/server',
  'apps/web',
  'e2e',
  'bench',
  'scripts',
  'tools',
];
const heavyLibraries = [
  'sharp',
  'exiftool-vendored',
  'archiver',
  'yazl',
  'nodemailer',
  '@node-saml/node-saml',
  'openid-client',
  'fluent-ffmpeg',
  'prom-client',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  '@aws-sdk/s3-request-presigner',
  '@tus/server',
  '@tus/file-store',
  '@tus/s3-store',
];

/**
 * The folders of apps/server/src and the folders each may import. The table has no cycles
 * (tools/eslint/boundaries.test.ts checks that), so the folders cannot import each other in a
 * circle. Files of one folder import each other freely; tests (*.test.ts) may import any folder.
 * `settings.ts` may be imported from anywhere. The composition root (`app.ts`, `services.ts`,
 * `main.ts`) imports any folder and is imported only by itself and `cli`. A folder without a row
 * may import the folders below (not `cli`), and only the composition root and `cli` import it: give
 * it a row when another folder needs it. docs/architecture.md explains each folder.
 */
export const serverFolders = {
  http: [],
  adapters: [],
  db: ['adapters'],
  jobs: ['db', 'http'],
  alike: ['adapters', 'db'],
  auth: ['http'],
  access: ['auth', 'db', 'http'],
  derivatives: ['adapters', 'alike', 'db', 'jobs'],
  catalogue: ['access', 'adapters', 'db', 'derivatives', 'jobs'],
  config: ['access', 'adapters', 'auth', 'db', 'http', 'jobs'],
  info: ['config', 'db', 'http'],
  media: ['access', 'derivatives', 'http'],
  search: ['access', 'auth', 'config', 'db', 'http'],
  user: ['adapters', 'auth', 'db', 'http', 'jobs'],
  session: ['access', 'adapters', 'auth', 'db', 'http', 'jobs', 'user'],
  sso: ['adapters', 'auth', 'db', 'http', 'session', 'user'],
  bookmark: ['access', 'auth', 'db', 'http'],
  share: ['access', 'adapters', 'auth', 'db', 'http', 'session', 'user'],
  download: ['access', 'adapters', 'auth', 'catalogue', 'config', 'db', 'derivatives', 'http', 'jobs', 'user'],
  edit: ['access', 'adapters', 'alike', 'auth', 'catalogue', 'db', 'derivatives', 'http', 'jobs'],
  'bench-data': ['catalogue', 'db'],
  cli: ['*'],
};
const serverRoot = 'apps/server/src/';
const compositionRoot = ['app.ts', 'services.ts', 'main.ts'];

/** The folder of a source file under `root`: `.` for files at the root, undefined outside `root`. */
const folderUnder = (root) => (file) => {
  if (!file?.startsWith(root)) return undefined;
  const rest = file.slice(root.length);
  return rest.includes('/') ? rest.split('/')[0] : '.';
};
const serverFolderOf = folderUnder(serverRoot);

/** Why a server folder may not import another, or undefined when it may. */
function folderViolation(from, target) {
  const a = serverFolderOf(from);
  const b = serverFolderOf(target);
  if (a === undefined || b === undefined || a === b || from.endsWith('.test.ts')) return undefined;
  if (b === '.') {
    const name = target.slice(serverRoot.length);
    if (name === 'settings.ts' || a === 'cli' || !compositionRoot.includes(name)) return undefined;
    return `only the composition root and cli import ${name}`;
  }
  if (a === '.') return undefined;
  const allowed = serverFolders[a];
  if (!allowed) {
    if (b in serverFolders && b !== 'cli') return undefined;
    return `the folder ${a} has no row in the folder table (tools/eslint/boundaries.js), so it imports only folders that have one`;
  }
  if (!(b in serverFolders)) {
    if (a === 'cli') return undefined;
    return `only the composition root and cli import ${b}, which has no row in the folder table; give it one`;
  }
  if (allowed.includes('*') || allowed.includes(b)) return undefined;
  return `the folder ${a} may import ${allowed.join(', ') || 'no other folder'}, not ${b} (folder table in tools/eslint/boundaries.js; it keeps folders free of cycles)`;
}

/**
 * The folders of apps/web/src, bottom up, and the folders each may import. Like the server's table it
 * has no cycles (checked in tools/eslint/boundaries.test.ts). `lib` imports nothing of the app;
 * `components` are presentational; `stores` hold the app's state and server data; `widgets` are
 * shared pieces connected to the stores; `features/*` are the screens (they never import each
 * other); `app` is the shell and start-up; `first-paint` is the page's script that paints the first
 * screen before the app's code has arrived. Files of one folder import each other freely; tests and
 * `test/` (test helpers) may import any folder; `main.tsx` (the entry) imports any folder and
 * nothing imports it. docs/architecture.md explains each folder.
 */
export const webFolders = {
  lib: [],
  components: ['lib'],
  stores: ['lib'],
  widgets: ['components', 'lib', 'stores'],
  features: ['components', 'lib', 'stores', 'widgets'],
  app: ['components', 'features', 'lib', 'stores', 'widgets'],
  // The page's first-paint script (a build of its own, run before the app's code): it imports only
  // modules without React, MUI or the stores, which its build checks (build/first-paint-script.ts).
  'first-paint': ['components', 'features', 'lib'],
  test: ['*'],
};
const webRoot = 'apps/web/src/';

const webFolderOf = folderUnder(webRoot);

/** Why a web folder may not import another, or undefined when it may. */
function webFolderViolation(from, target) {
  const a = webFolderOf(from);
  const b = webFolderOf(target);
  if (a === undefined || b === undefined || a === b || /\.test\.tsx?$/.test(from)) return undefined;
  if (b === '.') return `${target.slice(webRoot.length)} is the entry of the web app; nothing imports it`;
  if (a === '.') return undefined;
  for (const folder of [a, b]) {
    if (!(folder in webFolders)) {
      return `the web folder ${folder} has no row in the folder table (tools/eslint/boundaries.js); give it one`;
    }
  }
  const allowed = webFolders[a];
  if (allowed.includes('*') || allowed.includes(b)) return undefined;
  return `the web folder ${a} may import ${allowed.join(', ') || 'no other folder'}, not ${b} (folder table in tools/eslint/boundaries.js; layers run lib → components, stores → widgets → features → app)`;
}

const rel = (file) => path.relative(root, file).split(path.sep).join('/');
const packageOf = (file) => packageRoots.find((p) => file === p || file.startsWith(`${p}/`));
const bareName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const featureOf = (file) => /^apps\/web\/src\/features\/([^/]+)\//.exec(file)?.[1];
const layerOf = (file) => /\.(routes|service|repository)\.ts$/.exec(file)?.[1];

/** Returns why `from` may not import `spec`, or undefined when it may. */
export function violation(fromFile, spec) {
  const from = rel(fromFile);
  const fromPackage = packageOf(from);
  const relative = spec.startsWith('.');
  const target = relative ? rel(path.resolve(path.dirname(fromFile), spec)) : undefined;
  const name = relative ? undefined : bareName(spec);

  if (fromPackage === 'packages/contract' && !relative && name !== 'zod' && name !== 'vitest') {
    return 'the contract package imports only zod';
  }
  if (
    fromPackage === 'packages/search-engine' &&
    !relative &&
    !spec.startsWith('node:') &&
    name !== '@vitrine/contract' &&
    name !== 'vitest'
  ) {
    return 'the search engine imports only @vitrine/contract and node built-ins; the server passes it the rest through its ports';
  }
  if (
    fromPackage === 'apps/web' &&
    (name === '@vitrine/search-engine' || target?.startsWith('packages/search-engine/'))
  ) {
    return 'the web app never imports the search engine; it asks the server';
  }
  if (fromPackage === 'apps/web' && (name === '@vitrine/server' || target?.startsWith('apps/server/'))) {
    return 'the web app never imports server code; share through @vitrine/contract';
  }
  if (fromPackage === 'apps/server' && (name === '@vitrine/web' || target?.startsWith('apps/web/'))) {
    return 'the server never imports web code; share through @vitrine/contract';
  }
  if (relative && fromPackage && packageOf(target) !== fromPackage) {
    return `relative import across packages (${fromPackage} → ${packageOf(target) ?? target}); import the package by name`;
  }
  if (
    from.startsWith('apps/server/src/') &&
    !from.startsWith('apps/server/src/adapters/') &&
    heavyLibraries.includes(name)
  ) {
    return `${name} is reached only through its adapter in apps/server/src/adapters/`;
  }
  const fromFeature = featureOf(from);
  const toFeature = target && featureOf(`${target}/`);
  if (fromFeature && toFeature && fromFeature !== toFeature) {
    return `web features do not import each other (${fromFeature} → ${toFeature}); move shared parts to components/ or lib/`;
  }
  const folder = target && (folderViolation(from, target) ?? webFolderViolation(from, target));
  if (folder) return folder;
  const fromLayer = layerOf(from);
  const toLayer = target && layerOf(`${target}${target.endsWith('.ts') ? '' : '.ts'}`);
  if (fromLayer === 'routes' && toLayer === 'repository') {
    return 'routes call their service; repositories are built in the composition root (services.ts)';
  }
  if (
    (fromLayer === 'repository' && (toLayer === 'service' || toLayer === 'routes')) ||
    (fromLayer === 'service' && toLayer === 'routes')
  ) {
    return `layers run routes → services → repositories; a ${fromLayer} does not import a ${toLayer}`;
  }
  return undefined;
}

const rule = {
  meta: { type: 'problem', schema: [], docs: { description: 'Import rules of ARCHITECTURE §2' } },
  create(context) {
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const why = violation(context.filename, source.value);
      if (why) context.report({ node: source, message: `Import of '${source.value}' is not allowed: ${why}.` });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source.type === 'Literal' ? n.source : undefined),
    };
  },
};

export const boundariesPlugin = { rules: { boundaries: rule } };
