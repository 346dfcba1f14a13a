// Import rules of ARCHITECTURE §2, checked on every import, export-from and dynamic import.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const packageRoots = ['packages/contract', 'apps/server', 'apps/web', 'e2e', 'bench', 'scripts', 'tools'];
const heavyLibraries = [
  'sharp',
  'exiftool-vendored',
  'archiver',
  'yazl',
  'nodemailer',
  '@node-saml/node-saml',
  'openid-client',
  'fluent-ffmpeg',
];

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
  const fromLayer = layerOf(from);
  const toLayer = target && layerOf(`${target}${target.endsWith('.ts') ? '' : '.ts'}`);
  if (fromLayer === 'routes' && toLayer === 'repository' && from.startsWith('apps/server/src/')) {
    // Routes may construct a repository to hand to its service, but never query it themselves;
    // that is checked by reviewing, the layer order below by lint.
    return undefined;
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
