import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export class InfoRepository {
  constructor(private readonly db: Db) {}

  /** Proves the database answers; throws when it does not. */
  async ping(): Promise<Db['dialect']> {
    await sql`select 1`.execute(this.db.kysely);
    return this.db.dialect;
  }
}
