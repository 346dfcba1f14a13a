import type { NewJob } from '../jobs/job.repository.ts';
import type { JobHandler } from '../jobs/job.worker.ts';
import type { DownloadService } from './download.service.ts';

export const FOLD_DOWNLOADS_JOB = 'fold-downloads';

/**
 * How often every server process asks for the fold of delivered downloads into the assets' counts
 * (one run is queued at a time): the "downloads" sort lags the deliveries by at most about this long.
 */
export const FOLD_DOWNLOADS_EVERY_MS = 5 * 60_000;

/** The recurring job of the worker that counts delivered downloads on their assets. */
export const foldDownloadsSchedule = (everyMs = FOLD_DOWNLOADS_EVERY_MS): { job: NewJob; everyMs: number } => ({
  job: { name: FOLD_DOWNLOADS_JOB, key: FOLD_DOWNLOADS_JOB, payload: {}, maxAttempts: 1 },
  everyMs,
});

/**
 * Folds delivered downloads into the assets' `obj_dload_cnt`. Idempotent: a download is counted
 * once, whoever folds it; a run that finds nothing to fold writes nothing.
 */
export function downloadJobHandlers(
  downloads: DownloadService,
  log: { info(obj: object, msg: string): void },
): JobHandler[] {
  const fold: JobHandler<Record<string, never>> = {
    name: FOLD_DOWNLOADS_JOB,
    parse: () => ({}),
    run: async () => {
      const counted = await downloads.foldDownloads();
      if (counted > 0) log.info({ counted }, 'delivered downloads counted on their assets');
    },
  };
  return [fold] as JobHandler[];
}
