import path from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';

/** The page's own script: its entry, and its file in the build (read by the server, placed in the page). */
export const FIRST_PAINT_ENTRY = 'src/first-paint/main.ts';
export const FIRST_PAINT_FILE = 'first-paint.js';

/** The page's first-paint script, built from the app's sources under `root`, as one classic script. */
export async function buildFirstPaintScript(root: string): Promise<string> {
  const built = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      write: false,
      emptyOutDir: false,
      minify: true,
      lib: { entry: path.join(root, FIRST_PAINT_ENTRY), formats: ['iife'], name: 'vitrineFirstPaint' },
    },
  });
  const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (!chunk) throw new Error(`Building ${FIRST_PAINT_ENTRY} gave no script`);
  return chunk.code;
}

/**
 * Builds the page's first-paint script (src/first-paint) as one classic script beside the app's
 * modules: the server places it in the page inline (apps/server/src/config/first-paint.ts), where it
 * runs before any module has arrived. It imports the app's own modules that know what to ask and how
 * to draw (the early answers, the search's first request, the results' rows, texts and field
 * formats), compiled into it: none of them may import React or MUI, or their code would come too
 * (first-paint-script.test.ts checks the build).
 */
export function firstPaintScript(): Plugin {
  let root = '';
  return {
    name: 'vitrine-first-paint-script',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: FIRST_PAINT_FILE, source: await buildFirstPaintScript(root) });
    },
  };
}
