import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_ENTRY, firstScreenChunk } from './first-screen-chunk.ts';

type Group = { priority: number; name: (id: string, graph: unknown) => string | null };

/** The chunk each module goes to, for a module graph given as `id → imported ids`. */
function chunksOf(imports: Record<string, string[]>): (id: string) => string | null {
  const plugin = firstScreenChunk();
  const root = '/web';
  (plugin.configResolved as (c: { root: string }) => void)({ root });
  const config = (
    plugin.config as () => { build: { rolldownOptions: { output: { codeSplitting: { groups: Group[] } } } } }
  )();
  const groups = [...config.build.rolldownOptions.output.codeSplitting.groups].sort((a, b) => b.priority - a.priority);
  const graph = { getModuleInfo: (id: string) => ({ importedIds: imports[id] ?? [] }) };
  return (id) => groups.map((g) => g.name(id, graph)).find((name) => name !== null) ?? null;
}

describe('the chunks of a first visit (build/first-screen-chunk.ts)', () => {
  const main = '/web/src/main.tsx';
  const early = path.join('/web', EARLY_ENTRY);
  const chunkOf = chunksOf({
    [main]: ['/web/src/app/firstScreen.ts', '/react.js'],
    '/web/src/app/firstScreen.ts': ['/web/src/lib/earlyAnswers.ts', '/web/src/app/screens.ts'],
    [early]: ['/web/src/lib/earlyAnswers.ts'],
    '/web/src/lib/earlyAnswers.ts': ['/web/src/lib/apiClient.ts'],
  });

  it("puts the early entry and what it imports in a chunk of their own, also what the app's entry shares with it (decision 0243)", () => {
    for (const id of [early, '/web/src/lib/earlyAnswers.ts', '/web/src/lib/apiClient.ts'])
      expect(chunkOf(id), id).toBe('first-answers');
  });

  it("puts the rest of what the app's entry imports statically in the app's chunk, and leaves screens to themselves", () => {
    for (const id of [main, '/web/src/app/firstScreen.ts', '/react.js', '/web/src/app/screens.ts'])
      expect(chunkOf(id), id).toBe('app');
    expect(chunkOf('/web/src/features/search/SearchPage.tsx')).toBeNull();
  });
});
