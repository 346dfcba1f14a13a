import { derivativeJobsFor } from '../derivatives/derivative.jobs.ts';
import type { Db } from '../db/database.ts';
import { JobRepository } from '../jobs/job.repository.ts';

/** Assets read per query while their derivative jobs are queued. */
const BATCH = 1000;

/**
 * A restored database names derivatives and conversions whose files the archive does not carry, and
 * work slots of processes of the old portal: those rows are dropped, and every active asset's
 * derivative jobs are queued, so the first server to start makes the pictures and web videos again.
 * Answers the number of assets queued.
 */
export async function forgetMadeFiles(db: Db, now = Date.now()): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    for (const table of ['derivative', 'derivative_claim', 'conversion', 'work_slot'] as const) {
      await trx.deleteFrom(table).execute();
    }
    const jobs = new JobRepository(trx);
    let after = 0;
    let queued = 0;
    for (;;) {
      const assets = await trx
        .selectFrom('asset')
        .select(['id', 'sha256', 'asset_group'])
        .where('status', '=', 'active')
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (assets.length === 0) return queued;
      for (const asset of assets) for (const job of derivativeJobsFor(asset)) await jobs.enqueue(job, now);
      queued += assets.length;
      after = assets[assets.length - 1].id;
    }
  });
}
