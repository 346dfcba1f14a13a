import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { firstPaintScript } from './build/first-paint-script.ts';
import { firstScreenChunk } from './build/first-screen-chunk.ts';
import { muiDeepImports } from './build/mui-deep-imports.ts';
import { precompress } from './build/precompress.ts';

export default defineConfig({
  plugins: [react(), muiDeepImports(), firstScreenChunk(), firstPaintScript(), precompress()],
  base: './',
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
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    // Screens load their code on first visit; on a busy machine that alone can take seconds.
    testTimeout: 15_000,
  },
});
