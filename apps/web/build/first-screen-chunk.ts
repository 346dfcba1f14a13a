import path from 'node:path';
import type { Plugin } from 'vite';

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** The web app's folder, and the build's second entry in it. */
const webRoot = path.resolve(import.meta.dirname, '..');
export const EARLY_ENTRY = 'src/early.ts';

/**
 * Puts every module the app's entry imports statically (what every first visit runs: React, the
 * router, the shell, the MUI parts it draws) into one chunk beside the entry. Left to itself the
 * bundler cuts them into some forty small chunks by which screens share them; over HTTP/1.1 a phone
 * then waits for them six at a time, a round trip each. Screens loaded later keep their own chunks
 * and import from this one. The bytes loaded at start do not change, only the number of requests.
 *
 * The build's second entry (src/early.ts, which asks for the first screen's answers) and what it
 * imports go into a small chunk of their own, which the app's chunk imports: the page's script
 * starts it beside the app's entry, and it runs without waiting for the app's code (decision 0243).
 */
export function firstScreenChunk(): Plugin {
  let entry = '';
  let earlyEntry = '';
  let loadedAtStart: Set<string> | undefined;
  let loadedEarly: Set<string> | undefined;
  return {
    name: 'vitrine-first-screen-chunk',
    apply: 'build',
    configResolved(config) {
      entry = path.join(config.root, 'src/main.tsx');
      earlyEntry = path.join(config.root, EARLY_ENTRY);
    },
    config() {
      const closure = (graph: ModuleGraph, entry: string) => {
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
            input: { index: path.join(webRoot, 'index.html'), early: path.join(webRoot, EARLY_ENTRY) },
            output: {
              codeSplitting: {
                groups: [
                  {
                    // Higher priority: the modules the early entry shares with the app stay with it.
                    priority: 2,
                    name: (id, graph) => {
                      loadedEarly ??= closure(graph, earlyEntry);
                      return loadedEarly.has(id) ? 'first-answers' : null;
                    },
                  },
                  {
                    priority: 1,
                    name: (id, graph) => {
                      loadedAtStart ??= closure(graph, entry);
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
