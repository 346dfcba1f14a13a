import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFirstPaintScript } from './first-paint-script.ts';

describe("the page's first-paint script (decision 0244)", () => {
  it("is one classic script of the app's own modules, without React, MUI or a schema library, and small", async () => {
    const code = await buildFirstPaintScript(path.resolve(import.meta.dirname, '..'));
    // A classic script: no static import or export (the app's entry is started by import()).
    expect(code).not.toMatch(/(^|[;}\n])\s*(import\s*[\w{*]|export\s)/);
    expect(code).toMatch(/import\(/);
    // Markers of React's, MUI's and zod's code.
    for (const marker of ['react.transitional.element', '__SECRET_INTERNALS', 'MuiButton', 'ZodError'])
      expect(code).not.toContain(marker);
    // What it does: asks the session, paints the frame, starts the app.
    expect(code).toContain('session/get');
    expect(code).toContain('vt-first-paint-template');
    // Every page carries it: it stays well below the app's first chunk.
    expect(code.length).toBeLessThan(28 * 1024);
  }, 60_000);
});
