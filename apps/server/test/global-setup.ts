import type { TestProject } from 'vitest/node';
import { startTestCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return () => undefined;
  }
  const cluster = await startTestCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
