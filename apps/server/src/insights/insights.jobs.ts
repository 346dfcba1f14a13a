import type { NewJob } from '../jobs/job.repository.ts';
import type { JobHandler } from '../jobs/job.worker.ts';
import type { InsightsService } from './insights.service.ts';

export const AGGREGATE_INSIGHTS_JOB = 'aggregate-insights';

/**
 * How often every server process asks for the daily counts (one run is queued at a time): a day's
 * counts are final within about this long after midnight (UTC); until then they come from its events.
 */
export const AGGREGATE_INSIGHTS_EVERY_MS = 3600_000;

export const aggregateInsightsSchedule = (everyMs = AGGREGATE_INSIGHTS_EVERY_MS): { job: NewJob; everyMs: number } => ({
  job: { name: AGGREGATE_INSIGHTS_JOB, key: AGGREGATE_INSIGHTS_JOB, payload: {}, maxAttempts: 1 },
  everyMs,
});

/**
 * Counts the statistics' events into the daily counts and removes events past `insights.keepDays`.
 * Each day is counted once, whichever process runs it and however often (decision 0257 "Amended").
 */
export function aggregateInsightsJobHandler(
  insights: InsightsService,
  log: { info(obj: object, msg: string): void },
): JobHandler<Record<string, never>> {
  return {
    name: AGGREGATE_INSIGHTS_JOB,
    parse: () => ({}),
    run: async () => {
      const done = await insights.aggregate();
      if ('from' in done || done.purged > 0) log.info(done, 'statistics counted per day');
    },
  };
}
