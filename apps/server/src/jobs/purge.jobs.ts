import type { NewJob } from './job.repository.ts';
import type { JobHandler } from './job.worker.ts';

export const PURGE_JOB = 'purge-expired';

/** How often every server process asks for the purge (one run is queued at a time). */
export const PURGE_EVERY_MS = 3600_000;

/** Done jobs are kept a day, failed ones 30 days (an operator looks into those). */
export const DONE_JOBS_KEPT_MS = 24 * 3600_000;
export const FAILED_JOBS_KEPT_MS = 30 * 24 * 3600_000;
/** Delivered downloads, once counted, are kept 400 days: a yearly report finds the whole year. */
export const COUNTED_DOWNLOADS_KEPT_MS = 400 * 24 * 3600_000;

/** Rows that have outlived their use: `purge` removes those expired at `now` and answers how many. */
export interface PurgeTarget {
  what: string;
  purge(now: number): Promise<number>;
}

/** The recurring job of the worker that removes expired rows. */
export const purgeSchedule = (everyMs = PURGE_EVERY_MS): { job: NewJob; everyMs: number } => ({
  job: { name: PURGE_JOB, key: PURGE_JOB, payload: {}, maxAttempts: 1 },
  everyMs,
});

/**
 * Removes what has expired: sessions, login attempts, reset links, single sign-on codes and SAML
 * ids, finished jobs, catalogue changes every reader has applied, claims and locks their holder let
 * run out, counted downloads past their time, uploads left unfinished (and their parts). Idempotent: a second run finds nothing more to remove.
 */
export function purgeJobHandler(
  targets: PurgeTarget[],
  log: { info(obj: object, msg: string): void },
): JobHandler<Record<string, never>> {
  return {
    name: PURGE_JOB,
    parse: () => ({}),
    run: async () => {
      const now = Date.now();
      const removed: Record<string, number> = {};
      for (const target of targets) removed[target.what] = await target.purge(now);
      if (Object.values(removed).some((n) => n > 0)) log.info({ removed }, 'expired rows purged');
    },
  };
}
