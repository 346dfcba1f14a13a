import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { serverFolders, violation } from './boundaries.js';

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

  it('the server folder table has no cycle, so lint keeps the folders free of import cycles', () => {
    const table = serverFolders as Record<string, string[]>;
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
    expect(cycles).toEqual([]);
    // Every row is a folder of the server sources (a folder may lack a row: see the next tests).
    const src = at('apps/server/src');
    const folders = readdirSync(src, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [d.name] : []));
    expect(Object.keys(table).filter((f) => !folders.includes(f))).toEqual([]);
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
    expect(
      violation(at('apps/server/src/download/download.service.ts'), '../access/access.service.ts'),
    ).toBeUndefined();
    expect(violation(at('apps/server/src/download/download.service.ts'), '../cli/main.ts')).toMatch(/no row/);
    expect(violation(at('apps/server/src/services.ts'), './download/download.service.ts')).toBeUndefined();
    expect(violation(at('apps/server/src/search/search.service.ts'), '../download/download.service.ts')).toMatch(
      /give it one/,
    );
  });

  it('keeps the composition root at the top: only cli imports it, everyone may import settings.ts', () => {
    expect(violation(at('apps/server/src/search/search.routes.ts'), '../services.ts')).toMatch(/composition root/);
    expect(violation(at('apps/server/src/cli/users.ts'), '../services.ts')).toBeUndefined();
    expect(violation(at('apps/server/src/search/search.service.ts'), '../settings.ts')).toBeUndefined();
  });

  it('the server sources as they are have no folder cycle', () => {
    const src = at('apps/server/src');
    const edges = new Map<string, Set<string>>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) walk(file);
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
          const from = path.relative(src, file).split(path.sep)[0] ?? '';
          for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
            const to = path.relative(src, path.resolve(path.dirname(file), m[1] ?? '')).split(path.sep)[0] ?? '';
            if (from.endsWith('.ts') || to.endsWith('.ts') || from === to) continue;
            edges.set(from, (edges.get(from) ?? new Set()).add(to));
          }
        }
      }
    };
    walk(src);
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some((n) => n === to || (!seen.has(n) && (seen.add(n), reaches(n, to, seen))));
    const cycles = [...edges].flatMap(([a, targets]) =>
      [...targets].filter((b) => reaches(b, a)).map((b) => `${a} ↔ ${b}`),
    );
    expect(edges.size).toBeGreaterThan(10);
    expect(cycles).toEqual([]);
  });

  it('docs/architecture.md shows the folder table as lint has it', () => {
    const text = readFileSync(at('docs/architecture.md'), 'utf8');
    const doc = text.slice(text.indexOf('## Server folders'), text.indexOf('The **composition root**'));
    const rows = Object.fromEntries(
      [...doc.matchAll(/^\| `([\w-]+)` +\|[^|]*\| ([^|]*?) +\|$/gm)].map((m) => [
        m[1],
        m[2] === '—' ? [] : m[2] === 'every folder and the composition root' ? ['*'] : (m[2] ?? '').split(', '),
      ]),
    );
    expect(rows).toEqual(serverFolders);
  });
});
