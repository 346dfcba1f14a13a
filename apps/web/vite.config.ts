import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// react-router's package exports only name its development build; production bundles take the
// production build it ships beside it (smaller, without dev warnings).
const reactRouterDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  base: './',
  resolve: {
    alias:
      mode === 'production'
        ? [{ find: /^react-router$/, replacement: path.join(reactRouterDir, 'dist/production/index.mjs') }]
        : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    // bench/ reads the chunk graph to measure what each route loads.
    manifest: true,
  },
  server: {
    proxy: { '/assetportal': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' },
  },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Screens load their code on first visit; on a busy machine that alone can take seconds.
    testTimeout: 15_000,
  },
}));
