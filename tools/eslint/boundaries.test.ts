import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { violation } from './boundaries.js';

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

  it('keeps layers in order: a repository does not import a service', () => {
    expect(violation(at('apps/server/src/info/info.repository.ts'), './info.service.ts')).toMatch(/layers/);
  });

  it('forbids relative imports across packages', () => {
    expect(violation(at('apps/server/src/app.ts'), '../../../packages/contract/src/call.ts')).toMatch(
      /across packages/,
    );
  });
});
