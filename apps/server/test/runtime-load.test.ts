import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('the server as `vitrine serve` runs it', () => {
  // Tests compile TypeScript with Vite, the running server with tsx (esbuild); the two parsers do
  // not agree on everything, so load the whole server graph the way production does.
  it('loads every server module through the runtime loader', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx/esm',
        '-e',
        "const m = await import('./apps/server/src/app.ts'); console.log(typeof m.buildApp);",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function');
  });
});
