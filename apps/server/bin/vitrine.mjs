#!/usr/bin/env node
// Runs the compiled server in ../dist (built by `npm run setup`, or `npm run build:server`). Development
// and tests run the TypeScript sources instead (`npm run dev`, Vitest).
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/build.json', import.meta.url))) {
  console.error('The Vitrine server is not built. Run: npm run setup (or npm run build:server)');
  process.exit(1);
}
await import('../dist/cli/main.js');
