import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuildVariable } from './cli.ts';
import { makeStl } from './media-fixtures.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const src = path.join(root, 'apps/server/src');

/** Files under `dir`, relative to it, leaving out node_modules. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => !f.startsWith('node_modules/'));

/** Runs Node without tsx or Vitest, as bin/vitrine.mjs runs the build. */
const plainNode = (args: string[]) => {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return execFileSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' });
};

/** A module file in `dir` with `code`, for plainNode. */
const script = (dir: string, code: string) => {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  return file;
};

// `npm run dev` runs the TypeScript sources (Vite, tsx); `npm start` and `vitrine` run what
// scripts/build-server.mjs compiles with tsc. The tests' global setup builds it into a folder of its
// own (the `vitrine` processes of the tests run it); load it the way production does.
describe('the compiled server, as `vitrine` runs it', () => {
  const out = process.env[serverBuildVariable];
  if (!out) throw new Error('The global setup (test/global-setup.ts) did not build the server.');
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'vitrine-build-'));
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('loads every server module in a plain Node (no module of the build imports tsx)', () => {
    // The entry points (they serve or parse the command line) and the threads (they need a parent).
    const entries = [
      'main.js',
      'cli/main.js',
      'derivatives/model-view.thread.js',
      'cli/bench-data.index.js',
      'adapters/checkpointer.thread.js',
      'db/write.thread.js',
    ];
    const modules = filesUnder(out).filter((f) => f.endsWith('.js') && !entries.includes(f));
    expect(modules.length).toBeGreaterThan(100);
    const loadAll = script(
      scratch,
      `const [out, ...modules] = process.argv.slice(2);
       for (const m of modules) await import(out + '/' + m);
       const { buildApp } = await import(out + '/app.js');
       console.log(typeof buildApp);`,
    );
    expect(plainNode([loadAll, out, ...modules]).trim()).toBe('function');
    const tsx = modules.filter((m) => /from 'tsx|import\('tsx/.test(readFileSync(path.join(out, m), 'utf8')));
    expect(tsx).toEqual([]);
    expect(plainNode([path.join(out, 'cli/main.js'), '--version']).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('starts its threads from the compiled modules: a 3D model is drawn', () => {
    const model = makeStl(path.join(scratch, 'shape.stl'));
    const draw = script(
      scratch,
      `const [out, model] = process.argv.slice(2);
       const { ModelRenderer } = await import(out + '/derivatives/model-renderer.js');
       const renderer = new ModelRenderer({ maxFileMb: 64, maxTriangles: 100000, timeoutSeconds: 60, maxMemoryMb: 256 });
       const view = await renderer.render(model, 'stl');
       await renderer.close();
       console.log(view.kind);`,
    );
    expect(plainNode([draw, out, model]).trim()).toBe('drawn');
    // Every thread the sources start (startThread) has its compiled module beside its starter.
    const built = filesUnder(out);
    for (const file of filesUnder(src).filter((f) => f.endsWith('.ts'))) {
      for (const [, name] of readFileSync(path.join(src, file), 'utf8').matchAll(/startThread\(\s*'([^']+)'/g)) {
        expect(built).toContain(path.posix.join(path.posix.dirname(file), `${name}.js`));
      }
    }
  });

  it('starts the checkpointer thread from the compiled modules: it copies the write-ahead log', () => {
    const copy = script(
      scratch,
      `import { createRequire } from 'node:module';
       const [out, file] = process.argv.slice(2);
       const SQLite = createRequire(out + '/main.js')('better-sqlite3');
       const db = new SQLite(file);
       db.pragma('journal_mode = WAL');
       db.pragma('wal_autocheckpoint = 0');
       db.exec('create table t (x blob)');
       const insert = db.prepare('insert into t (x) values (?)');
       for (let i = 0; i < 100; i++) insert.run(Buffer.alloc(4000, i));
       const { startCheckpointer } = await import(out + '/adapters/checkpointer.js');
       // The thread does not keep a process alive (a server's listener does): this timer does here.
       const alive = setInterval(() => {}, 1000);
       const pages = await new Promise((resolve, reject) => {
         const checkpointer = startCheckpointer(file, (error) => reject(new Error(error)), (n) => {
           if (n > 0) checkpointer.stop().then(() => resolve(n), reject);
         });
       });
       clearInterval(alive);
       db.close();
       console.log(pages >= 100 ? 'copied' : 'copied ' + pages);`,
    );
    expect(plainNode([copy, out, path.join(scratch, 'wal.db')]).trim()).toBe('copied');
  });

  it('runs a transaction in the compiled write thread, and a command awaiting only it runs to its end', () => {
    const write = script(
      scratch,
      `const [out, file] = process.argv.slice(2);
       const { openDatabase } = await import(out + '/db/database.js');
       const { WriteThread } = await import(out + '/db/write-thread.js');
       const db = await openDatabase({ dialect: 'sqlite', file });
       const thread = new WriteThread(file, db.kysely);
       // Nothing else keeps this process going while the thread answers (no listener, no timer).
       const rows = await thread.transaction((trx) => trx.selectFrom('catalogue_state').select('generation').execute());
       await thread.stop();
       await db.close();
       console.log('rows ' + rows.length);`,
    );
    expect(plainNode([write, out, path.join(scratch, 'write.db')]).trim()).toBe('rows 1');
  });

  it('has in the build every file of the sources that is not TypeScript (tsc copies only imported JSON)', () => {
    // A file the server reads at run time (SQL, a template) would be missing from dist/: import it
    // as JSON, keep it outside src/ and find it from the build, or have scripts/build-server.mjs
    // copy it. ts-thread.mjs starts threads from the sources only.
    const other = filesUnder(src).filter((f) => !f.endsWith('.ts') && f !== 'adapters/ts-thread.mjs');
    expect(other.length).toBeGreaterThan(0);
    expect(other.filter((f) => !existsSync(path.join(out, f)))).toEqual([]);
  });
});
