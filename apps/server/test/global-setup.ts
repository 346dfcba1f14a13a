import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { testPasswordHashCost } from './cheap-password-hashes.ts';
import { serverBuildVariable } from './cli.ts';
import { startTestCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Compiles the server once for the `vitrine` processes the tests start (test/cli.ts), again only when
 * a source is newer than the build. Through tsx each of those processes spent over a second more
 * than the compiled one on starting, and the tests start a hundred of them. The build lies under
 * apps/server, so that its modules find the packages the server's own node_modules holds before
 * the root's, as apps/server/dist does (the root's tar-stream is another major version). Beside it,
 * a module that gives its password hashes the tests' cost, as cheap-password-hashes.ts does for the
 * sources.
 */
function buildServerForTests(): string {
  const out = path.join(root, 'apps/server/node_modules/.cache/vitrine-test-build');
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--if-stale', '--out', out], {
    cwd: root,
    stdio: 'pipe',
  });
  writeFileSync(
    path.join(out, 'test-password-cost.mjs'),
    `import { setPasswordHashCostForTests } from './adapters/password.js';\n` +
      `setPasswordHashCostForTests(${JSON.stringify(testPasswordHashCost)});\n`,
  );
  return out;
}

export default async function setup(project: TestProject): Promise<() => void> {
  // An environment variable rather than provide(): bench/scale starts servers with test/cli.ts too,
  // outside the test runner, from the sources.
  process.env[serverBuildVariable] = buildServerForTests();
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return () => undefined;
  }
  const cluster = await startTestCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
