import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', environment: 'node', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { name: 'search-engine', environment: 'node', include: ['packages/search-engine/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['apps/server/{src,test}/**/*.test.ts', 'scripts/**/*.test.ts', 'tools/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          setupFiles: ['apps/server/test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
