import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { serverFolders, violation, webFolders } from './boundaries.js';

const root = path.resolve(import.meta.dirname, '../..');
const at = (file: string) => path.join(root, file);

describe('import rules (ARCHITECTURE §2)', () => {
  it('fails lint when a web file imports server code', async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("export { buildApp } from '../../../../server/src/app.ts';\n", {
      filePath: at('apps/web/src/features/search/probe.js'),
    });
    const messages = result?.messages.filter((m) => m.ruleId === 'vitrine/boundaries') ?? [];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('the web app never imports server code');
  });

  it('allows the web app to import the contract', () => {
    expect(violation(at('apps/web/src/lib/apiClient.ts'), '@vitrine/contract/search')).toBeUndefined();
  });

  it('keeps the contract free of anything but zod', () => {
    expect(violation(at('packages/contract/src/search.ts'), 'zod')).toBeUndefined();
    expect(violation(at('packages/contract/src/search.ts'), 'kysely')).toMatch(/only zod/);
  });

  it('fails lint when the search engine imports server code; it imports only the contract and node built-ins', async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("export { indexRule } from '@vitrine/server/src/access/rule.ts';\n", {
      filePath: at('packages/search-engine/src/probe.js'),
    });
    const messages = result?.messages.filter((m) => m.ruleId === 'vitrine/boundaries') ?? [];
    expect(messages.map((m) => m.message)).toEqual([expect.stringContaining('the search engine imports only')]);
    const engine = at('packages/search-engine/src/catch-up/catch-up.ts');
    expect(violation(engine, '../../../apps/server/src/db/database.ts')).toMatch(/across packages/);
    expect(violation(engine, 'kysely')).toMatch(/imports only @vitrine\/contract/);
    expect(violation(engine, '@vitrine/contract/search')).toBeUndefined();
    expect(violation(engine, 'node:crypto')).toBeUndefined();
    expect(violation(at('apps/server/src/search/create-engine.ts'), '@vitrine/search-engine')).toBeUndefined();
    expect(violation(at('apps/web/src/lib/apiClient.ts'), '@vitrine/search-engine')).toMatch(
      /never imports the search engine/,
    );
  });

  it('keeps heavy libraries inside their adapters', () => {
    expect(violation(at('apps/server/src/catalogue/catalogue.service.ts'), 'sharp')).toMatch(/adapter/);
    expect(violation(at('apps/server/src/adapters/media.ts'), 'sharp')).toBeUndefined();
  });

  it('keeps web features apart', () => {
    expect(violation(at('apps/web/src/features/search/SearchPage.tsx'), '../bookmark/BookmarkPage.tsx')).toMatch(
      /features do not import each other/,
    );
    expect(
      violation(at('apps/web/src/features/search/SearchPage.tsx'), '../../components/PageHeading.tsx'),
    ).toBeUndefined();
  });

  it('keeps layers in order: a repository does not import a service, routes do not import repositories', () => {
    expect(violation(at('apps/server/src/info/info.repository.ts'), './info.service.ts')).toMatch(/layers/);
    expect(violation(at('apps/server/src/info/info.routes.ts'), './info.repository.ts')).toMatch(/composition root/);
  });

  it('forbids relative imports across packages', () => {
    expect(violation(at('apps/server/src/app.ts'), '../../../packages/contract/src/call.ts')).toMatch(
      /across packages/,
    );
  });

  it.each([
    ['server', serverFolders, 'apps/server/src'],
    ['web', webFolders, 'apps/web/src'],
  ])('the %s folder table has no cycle, so lint keeps the folders free of import cycles', (_, folders, dir) => {
    expect(tableCycles(folders as Record<string, string[]>)).toEqual([]);
    // Every row is a folder of the sources (a server folder may lack a row: see the tests below).
    const src = at(dir);
    const present = readdirSync(src, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [d.name] : []));
    expect(Object.keys(folders).filter((f) => !present.includes(f))).toEqual([]);
  });

  it('fails lint for an import that would close a folder cycle (media ↔ jobs, session ↔ user)', async () => {
    expect(violation(at('apps/server/src/jobs/job.worker.ts'), '../media/media.service.ts')).toMatch(
      /jobs may import db, http, not media/,
    );
    expect(violation(at('apps/server/src/user/user.service.ts'), '../session/auth.service.ts')).toMatch(
      /user may import .*, not session/,
    );
    expect(violation(at('apps/server/src/session/session.service.ts'), '../user/user.repository.ts')).toBeUndefined();
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("export { MediaService } from '../media/media.service.ts';\n", {
      filePath: at('apps/server/src/derivatives/probe.js'),
    });
    const messages = result?.messages.filter((m) => m.ruleId === 'vitrine/boundaries') ?? [];
    expect(messages.map((m) => m.message)).toEqual([expect.stringContaining('derivatives may import')]);
  });

  it('lets a folder without a row import the folders below, and only the composition root import it', () => {
    expect(violation(at('apps/server/src/reports/reports.service.ts'), '../access/access.service.ts')).toBeUndefined();
    expect(violation(at('apps/server/src/reports/reports.service.ts'), '../cli/main.ts')).toMatch(/no row/);
    expect(violation(at('apps/server/src/services.ts'), './reports/reports.service.ts')).toBeUndefined();
    expect(violation(at('apps/server/src/search/search.service.ts'), '../reports/reports.service.ts')).toMatch(
      /give it one/,
    );
  });

  it('keeps the composition root at the top: only cli imports it, everyone may import settings.ts', () => {
    expect(violation(at('apps/server/src/search/search.routes.ts'), '../services.ts')).toMatch(/composition root/);
    expect(violation(at('apps/server/src/cli/users.ts'), '../services.ts')).toBeUndefined();
    expect(violation(at('apps/server/src/search/search.service.ts'), '../settings.ts')).toBeUndefined();
  });

  it('the server sources as they are have no folder cycle', () => {
    const edges = folderEdges(at('apps/server/src'), (rel) => rel.split('/')[0] ?? '');
    expect(edges.size).toBeGreaterThan(10);
    expect(edgeCycles(edges)).toEqual([]);
  });

  it('the web sources as they are have no folder cycle, counting each feature as a folder of its own', () => {
    const edges = folderEdges(at('apps/web/src'), (rel) => {
      const [first, second] = rel.split('/');
      return first === 'features' ? `features/${second}` : (first ?? '');
    });
    expect(edges.size).toBeGreaterThan(10);
    expect(edgeCycles(edges)).toEqual([]);
  });

  it('docs/architecture.md shows the server folder table as lint has it', () => {
    expect(
      documentedTable('## Server folders', 'The **composition root**', 'every folder and the composition root'),
    ).toEqual(serverFolders);
  });

  it('docs/architecture.md shows the web folder table as lint has it', () => {
    expect(documentedTable('## Web folders', '## The path of one request', 'every folder')).toEqual(webFolders);
  });

  describe('web layers: lib → components, stores → widgets → features → app', () => {
    it('fails lint for a web import that runs back up (lib → stores, components → widgets, features → app)', async () => {
      expect(violation(at('apps/web/src/lib/router.tsx'), '../stores/session.ts')).toMatch(
        /web folder lib may import no other folder, not stores/,
      );
      expect(violation(at('apps/web/src/components/ConfirmDialog.tsx'), '../widgets/ShareDialog.tsx')).toMatch(
        /components may import lib, not widgets/,
      );
      expect(violation(at('apps/web/src/features/search/SearchPage.tsx'), '../../app/routes.tsx')).toMatch(
        /features may import .*, not app/,
      );
      expect(violation(at('apps/web/src/stores/bookmarks.ts'), '../components/icons.tsx')).toMatch(
        /stores may import lib, not components/,
      );
      const eslint = new ESLint({ cwd: root });
      const [result] = await eslint.lintText("export { useSession } from '../stores/session.ts';\n", {
        filePath: at('apps/web/src/lib/probe.js'),
      });
      const messages = result?.messages.filter((m) => m.ruleId === 'vitrine/boundaries') ?? [];
      expect(messages.map((m) => m.message)).toEqual([expect.stringContaining('lib may import no other folder')]);
    });

    it('lets each layer import the layers below it, tests anything, and nothing the entry', () => {
      expect(violation(at('apps/web/src/widgets/ShareDialog.tsx'), '../stores/shares.ts')).toBeUndefined();
      expect(violation(at('apps/web/src/widgets/ShareDialog.tsx'), '../components/ConfirmDialog.tsx')).toBeUndefined();
      expect(
        violation(at('apps/web/src/features/search/SearchPage.tsx'), '../../widgets/GuidedTour.tsx'),
      ).toBeUndefined();
      expect(violation(at('apps/web/src/app/routes.tsx'), '../features/search/SearchPage.tsx')).toBeUndefined();
      expect(violation(at('apps/web/src/main.tsx'), './app/routes.tsx')).toBeUndefined();
      expect(violation(at('apps/web/src/lib/router/react.test.tsx'), '../../test/renderApp.tsx')).toBeUndefined();
      expect(violation(at('apps/web/src/app/routes.tsx'), '../main.tsx')).toMatch(/entry of the web app/);
      expect(violation(at('apps/web/src/hooks/useThing.ts'), '../lib/format.ts')).toMatch(/hooks has no row/);
    });
  });

  it("keeps React out of the router's matching and history, and the router's parts behind lib/router.tsx", async () => {
    const eslint = new ESLint({ cwd: root });
    /** What lint's `no-restricted-imports`, as configured for `file`, says of an import of `spec`. */
    const restricted = async (file: string, spec: string) => {
      const config = (await eslint.calculateConfigForFile(at(file))) as { rules?: Linter.RulesRecord };
      const rule = config.rules?.['no-restricted-imports'];
      if (!rule) return [];
      return new Linter()
        .verify(`import '${spec}';\n`, { rules: { 'no-restricted-imports': rule } })
        .map((m) => m.message);
    };
    const refused = (why: string): unknown[] => [expect.stringContaining(why)];
    expect(await restricted('apps/web/src/lib/router/matching.ts', 'react')).toEqual(refused('binds the router'));
    expect(await restricted('apps/web/src/lib/router/history.ts', 'react-dom/client')).toEqual(
      refused('binds the router'),
    );
    expect(await restricted('apps/web/src/lib/router/react.tsx', 'react')).toEqual([]);
    expect(await restricted('apps/web/src/app/routes.tsx', '../lib/router/react.tsx')).toEqual(refused('one entry'));
    expect(await restricted('apps/web/src/app/routes.tsx', '../lib/router.tsx')).toEqual([]);
    expect(await restricted('apps/web/src/lib/router.tsx', './router/react.tsx')).toEqual([]);
  });
});

/** The folder table of docs/architecture.md between `start` and `end`; `everyFolder` stands for `*`. */
function documentedTable(start: string, end: string, everyFolder: string): Record<string, string[]> {
  const text = readFileSync(at('docs/architecture.md'), 'utf8');
  const doc = text.slice(text.indexOf(start), text.indexOf(end));
  return Object.fromEntries(
    [...doc.matchAll(/^\| `([\w-]+)` +\|[^|]*\| ([^|]*?) +\|$/gm)].map((m) => [
      m[1],
      m[2] === '—' ? [] : m[2] === everyFolder ? ['*'] : (m[2] ?? '').split(', '),
    ]),
  );
}

/** Cycles of a folder table (folder → folders it may import), as "a → b → a" trails. */
function tableCycles(table: Record<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (folder: string, trail: string[]) => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open') return void cycles.push([...trail, folder].join(' → '));
    state.set(folder, 'open');
    for (const next of table[folder] ?? []) if (next !== '*') visit(next, [...trail, folder]);
    state.set(folder, 'done');
  };
  for (const folder of Object.keys(table)) visit(folder, []);
  return cycles;
}

/** The folder → folder imports of the non-test sources under `src`, folders named by `folderOf`. */
function folderEdges(src: string, folderOf: (relative: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const from = folderOf(path.relative(src, file).split(path.sep).join('/'));
        for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
          const target = path.relative(src, path.resolve(path.dirname(file), m[1] ?? ''));
          const to = folderOf(target.split(path.sep).join('/'));
          if (/\.tsx?$/.test(from) || /\.tsx?$/.test(to) || from === to) continue;
          edges.set(from, (edges.get(from) ?? new Set()).add(to));
        }
      }
    }
  };
  walk(src);
  return edges;
}

/** Pairs of folders that reach each other through `edges`. */
function edgeCycles(edges: Map<string, Set<string>>): string[] {
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(edges.get(from) ?? [])].some((n) => n === to || (!seen.has(n) && (seen.add(n), reaches(n, to, seen))));
  return [...edges].flatMap(([a, targets]) => [...targets].filter((b) => reaches(b, a)).map((b) => `${a} ↔ ${b}`));
}
