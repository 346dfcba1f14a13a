import path from 'node:path';
import type { Plugin } from 'vite';

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/**
 * Puts every module the app's entry imports statically (what every first visit runs: React, the
 * router, the shell, the MUI parts it draws) into one chunk beside the entry. Left to itself the
 * bundler cuts them into some forty small chunks by which screens share them; over HTTP/1.1 a phone
 * then waits for them six at a time, a round trip each. Screens loaded later keep their own chunks
 * and import from this one. The bytes loaded at start do not change, only the number of requests.
 */
export function firstScreenChunk(): Plugin {
  let entry = '';
  let loadedAtStart: Set<string> | undefined;
  return {
    name: 'vitrine-first-screen-chunk',
    apply: 'build',
    configResolved(config) {
      entry = path.join(config.root, 'src/main.tsx');
    },
    config() {
      const closure = (graph: ModuleGraph) => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          for (const imported of graph.getModuleInfo(id)?.importedIds ?? []) visit(imported);
        };
        visit(entry);
        return seen;
      };
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  {
                    name: (id, graph) => {
                      loadedAtStart ??= closure(graph);
                      return loadedAtStart.has(id) ? 'app' : null;
                    },
                  },
                ],
              },
            },
          },
        },
      };
    },
  };
}
