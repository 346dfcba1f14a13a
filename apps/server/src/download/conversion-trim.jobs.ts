import type { NewJob } from '../jobs/job.repository.ts';
import type { JobHandler } from '../jobs/job.worker.ts';
import type { ConversionCache } from './conversion-cache.ts';

export const TRIM_CONVERSIONS_JOB = 'trim-conversions';

/** How often every server process asks for the trim of the conversion cache (one run is queued at a time). */
export const TRIM_CONVERSIONS_EVERY_MS = 3600_000;

/** The recurring job of the worker that keeps the conversion cache within its size. */
export const trimConversionsSchedule = (everyMs = TRIM_CONVERSIONS_EVERY_MS): { job: NewJob; everyMs: number } => ({
  job: { name: TRIM_CONVERSIONS_JOB, key: TRIM_CONVERSIONS_JOB, payload: {}, maxAttempts: 1 },
  everyMs,
});

/**
 * Removes the least recently used conversions until the cache is within `conversionCache.maxGB`
 * (or its share of the disk). Idempotent: a cache within its size is left alone.
 */
export function trimConversionsJobHandler(
  cache: ConversionCache,
  maxGB: number | undefined,
  log: { info(obj: object, msg: string): void },
): JobHandler {
  return {
    name: TRIM_CONVERSIONS_JOB,
    parse: () => ({}),
    run: async () => {
      const limitBytes = await cache.limit(maxGB);
      const removed = await cache.trim(limitBytes);
      if (removed.files > 0) log.info({ ...removed, limitBytes }, 'least recently used conversions removed');
    },
  };
}
