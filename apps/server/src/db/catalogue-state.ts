import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Tells every process that the catalogue changed (search indexes reload what they keep in memory):
 * called in the transaction of each write to assets, so a reader never sees the change without the
 * new generation or the other way round.
 */
export async function bumpCatalogueGeneration(trx: Transaction<Database> | Kysely<Database>): Promise<void> {
  await trx
    .updateTable('catalogue_state')
    .set({ generation: sql`generation + 1` })
    .where('id', '=', 1)
    .execute();
}
