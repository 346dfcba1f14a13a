// Which keys of the global config a set of source files reads, found by the TypeScript compiler.
import path from 'node:path';
import ts from 'typescript';

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');
const globalConfigFile = path.join(repoRoot, 'packages/contract/src/global-config.ts');

/** A property of the config: its declaration in the schema, or the property itself where it has none (a mapped key). */
type Property = ts.Node | ts.Symbol;

/**
 * The config's keys, each with the declarations (in the schema) of the properties on its way:
 * `search.thumbnails.header` goes through `search`, `thumbnails` and `header`. Schemas used in
 * several places (a field list) give several keys the same declaration.
 */
function keyPaths(checker: ts.TypeChecker, program: ts.Program): Map<string, Property[]> {
  const source = program.getSourceFile(globalConfigFile);
  const alias =
    source && checker.getSymbolAtLocation(source)?.exports?.get(ts.escapeLeadingUnderscores('GlobalConfig'));
  if (!alias) throw new Error('GlobalConfig is not exported by the contract');
  const keys = new Map<string, Property[]>();
  const walk = (type: ts.Type, key: string, via: Property[]): void => {
    const t = checker.getNonNullableType(type);
    if (checker.isArrayType(t)) return walk(checker.getTypeArguments(t as ts.TypeReference)[0]!, `${key}[]`, via);
    const props = t.flags & ts.TypeFlags.Object ? checker.getPropertiesOfType(t) : [];
    if (props.length === 0) {
      const values =
        t.flags & ts.TypeFlags.Object ? checker.getIndexInfoOfType(t, ts.IndexKind.String)?.type : undefined;
      // A record's values are one key (`{}`); a record of anything at all is a leaf.
      if (values && !(values.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any))) return walk(values, `${key}{}`, via);
      keys.set(values ? `${key}{}` : key, via);
      return;
    }
    for (const prop of props) {
      walk(checker.getTypeOfSymbol(prop), key === '' ? prop.name : `${key}.${prop.name}`, [...via, identity(prop)]);
    }
  };
  walk(checker.getDeclaredTypeOfSymbol(alias), '', []);
  return keys;
}

const identity = (prop: ts.Symbol): Property => prop.declarations?.[0] ?? prop;

/**
 * The config's properties read in `file`: `a.b`, `a['b']`, `a[k]` (each property `k` may name),
 * `const { b } = a`. Only names the config has are looked up: the compiler's answer costs time.
 */
function propertiesRead(checker: ts.TypeChecker, file: ts.SourceFile, names: Set<string>, into: Set<Property>): void {
  const note = (prop: ts.Symbol | undefined) => {
    if (prop) into.add(identity(prop));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      if (names.has(node.name.text)) note(checker.getSymbolAtLocation(node.name));
    } else if (ts.isElementAccessExpression(node) && !ts.isNumericLiteral(node.argumentExpression)) {
      const keyType = checker.getTypeAtLocation(node.argumentExpression);
      const literals = keyType.isUnion() ? keyType.types : [keyType];
      const object = checker.getTypeAtLocation(node.expression);
      for (const literal of literals) {
        if (literal.isStringLiteral() && names.has(literal.value))
          note(checker.getPropertyOfType(object, literal.value));
      }
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = node.propertyName ?? node.name;
      if (ts.isIdentifier(name) && names.has(name.text))
        note(checker.getPropertyOfType(checker.getTypeAtLocation(node.parent), name.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

const throughLibraries = /^(zod|react|@types\/react|@tanstack)\//;

export interface ConfigReads<S extends string> {
  /** Every key of the config, as the types name them. */
  keys: string[];
  /** Per set of files, the keys it reads: each property on the key's way is read in those files. */
  read: Record<S, Set<string>>;
}

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  // Config values pass through no type of the browser's or of Node.
  types: [],
  lib: ['lib.es2023.d.ts'],
};

/**
 * The keys of the global config that each set of files reads. A key counts as read when every
 * property on its way is read, each as the config's own property: the compiler resolves `x.title`
 * to the property it is, so `infoView.title` is not credited by `bookmark.title` nor by the title of
 * anything else. `files` may be answered by `host` (files of a test).
 */
export function configReads<S extends string>(
  sets: Record<S, readonly string[]>,
  host: ts.CompilerHost = ts.createCompilerHost(options),
): ConfigReads<S> {
  // The types of user-interface libraries take most of the compiler's time and carry no config:
  // only the libraries a config value passes through are read.
  host.resolveModuleNameLiterals = (literals, containingFile, _redirect, opts) =>
    literals.map((literal) => {
      const resolved = ts.resolveModuleName(literal.text, containingFile, opts, host).resolvedModule;
      const library = resolved?.resolvedFileName.split('/node_modules/')[1];
      return { resolvedModule: library && !throughLibraries.test(library) ? undefined : resolved };
    });
  const all = [...new Set(Object.values<readonly string[]>(sets).flat())];
  const program = ts.createProgram({ rootNames: all, options, host });
  const checker = program.getTypeChecker();
  const keys = keyPaths(checker, program);
  const names = new Set([...keys.keys()].flatMap((key) => key.split(/\.|\[\]|\{\}/)).filter((name) => name !== ''));
  const readBy = (files: readonly string[]) => {
    const properties = new Set<Property>();
    for (const file of files) {
      const source = program.getSourceFile(file);
      if (!source) throw new Error(`${file} is not a source file`);
      propertiesRead(checker, source, names, properties);
    }
    return new Set([...keys].filter(([, via]) => via.every((p) => properties.has(p))).map(([key]) => key));
  };
  const read = Object.fromEntries(Object.entries<readonly string[]>(sets).map(([set, files]) => [set, readBy(files)]));
  return { keys: [...keys.keys()], read: read as Record<S, Set<string>> };
}
