import { sql } from 'kysely';
import { derivativeJobsFor } from '../derivatives/derivative.jobs.ts';
import type { Db } from '../db/database.ts';
import { JobRepository } from '../jobs/job.repository.ts';

/**
 * Assets uploaded by editors name their originals below `from` (the backed-up portal's place of
 * uploaded originals); restored elsewhere, they are below `to`. Answers the number of assets moved.
 */
export async function moveUploadedOriginals(db: Db, from: string, to: string): Promise<number> {
  const below = `${from}/`;
  let moved = 0;
  for (const column of ['source_path', 'import_root'] as const) {
    const result = await db.kysely
      .updateTable('asset')
      .set({ [column]: sql<string>`${to} || substr(${sql.ref(column)}, ${from.length + 1})` })
      .where(sql<boolean>`substr(${sql.ref(column)}, 1, ${below.length}) = ${below}`)
      .executeTakeFirst();
    if (column === 'source_path') moved = Number(result.numUpdatedRows);
  }
  return moved;
}

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
      after = assets.at(-1)?.id ?? after;
    }
  });
}
