import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The SQL of the work budget: slots of a kind that all processes share, each leased by one holder. */
export class WorkSlotRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Takes a free slot of `kind` (one of `total`, starting the search at `first`), or one whose
   * holder stopped renewing it. Answers the slot's number, or undefined when all are held.
   */
  async take(
    kind: string,
    total: number,
    holder: string,
    leaseMs: number,
    first = 0,
    now = Date.now(),
  ): Promise<number | undefined> {
    const slots = Array.from({ length: total }, (_x, i) => (first + i) % total);
    return this.takeOneOf(kind, slots, holder, leaseMs, now);
  }

  /**
   * Takes the first of `slots` (slot numbers of `kind`, in the order to try) that is free or whose
   * holder stopped renewing it; undefined when all of them are held.
   */
  async takeOneOf(
    kind: string,
    slots: readonly number[],
    holder: string,
    leaseMs: number,
    now = Date.now(),
  ): Promise<number | undefined> {
    for (const slot of slots) {
      // One statement per slot: the insert wins a free slot, the conditional update an expired one,
      // and a row held by someone alive is left alone (no row changed), on both databases.
      const result = await this.db
        .insertInto('work_slot')
        .values({ kind, slot, holder, expires_at: now + leaseMs })
        .onConflict((oc) =>
          oc
            .columns(['kind', 'slot'])
            .doUpdateSet({ holder, expires_at: now + leaseMs })
            .where('work_slot.expires_at', '<', now),
        )
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return slot;
    }
    return undefined;
  }

  /** Extends the lease of the holder's slots named; answers how many it still held. */
  async renew(
    holder: string,
    held: readonly { kind: string; slots: readonly number[] }[],
    leaseMs: number,
    now = Date.now(),
  ): Promise<number> {
    if (held.length === 0) return 0;
    const result = await this.db
      .updateTable('work_slot')
      .set({ expires_at: now + leaseMs })
      .where('holder', '=', holder)
      .where((eb) => eb.or(held.map((h) => eb.and([eb('kind', '=', h.kind), eb('slot', 'in', [...h.slots])]))))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async release(kind: string, slot: number, holder: string): Promise<void> {
    await this.db
      .deleteFrom('work_slot')
      .where('kind', '=', kind)
      .where('slot', '=', slot)
      .where('holder', '=', holder)
      .execute();
  }

  async releaseAll(holder: string): Promise<void> {
    await this.db.deleteFrom('work_slot').where('holder', '=', holder).execute();
  }

  /** Slots held now (not expired), per kind, in all processes. */
  async held(now = Date.now()): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('work_slot')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('expires_at', '>=', now)
      .groupBy('kind')
      .execute();
    return new Map(rows.map((r) => [r.kind, Number(r.n)]));
  }
}
