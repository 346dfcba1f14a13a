import type { Db } from '../db/database.ts';
import type { Settings } from '../settings.ts';
import { derivativeHandlers } from './derivatives.job.ts';
import { JobWorker, type WorkerOptions } from './job.worker.ts';

/** The worker every Vitrine process runs: all job handlers the server knows. */
export function createJobWorker(db: Db, settings: Settings, options: WorkerOptions = {}): JobWorker {
  return new JobWorker(db.kysely, derivativeHandlers(db.kysely, settings.dataDir), {
    leaseMs: settings.jobLeaseMs,
    ...options,
  });
}
