import { spawn } from 'node:child_process';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { expectPortFree, serverStarted, stopServer } from './ownServer.ts';
import { objectStorePort, portalOf } from './portals.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the portal on the object store (e2e/support/object-store-server.mjs: the S3 server, the
 * demo imported on the first start, then the portal); answers how to stop both.
 */
async function startObjectStorePortal(): Promise<() => Promise<void>> {
  const portal = portalOf('object-store');
  await expectPortFree(portal.origin);
  const server = spawn(process.execPath, ['e2e/support/object-store-server.mjs'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...portal.env, PORT: String(objectStorePort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  try {
    // The first start imports the demo catalogue with its derivatives.
    await serverStarted(server, portal.origin, 540_000);
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  return () => stopServer(server);
}

/**
 * The journeys' `test`, which every journey uses (one set of fixtures: the runner keeps the files'
 * order and one worker per project, the two projects side by side): on project `object-store`, the
 * worker starts the portal on the object store before its first journey (only runs that have journeys tagged `@media` pay for it) and stops it
 * when it ends. The bucket and the data folder outlive a worker that restarts after a failure.
 */
export const test = base.extend<object, { objectStorePortal: void }>({
  objectStorePortal: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      if (workerInfo.project.name !== 'object-store') return use();
      const stop = await startObjectStorePortal();
      try {
        await use();
      } finally {
        await stop();
      }
    },
    { scope: 'worker', auto: true, timeout: 600_000 },
  ],
});
export { expect };
