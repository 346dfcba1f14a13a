import { sql } from 'kysely';
import { ConfigRepository } from '../config/config.repository.ts';
import type { Db } from '../db/database.ts';
import type { GroupStore, StoredGroups } from '../access/group-rights.ts';

/** The config document the admin area's groups are stored as (its versions in config_history). */
export const GROUPS_DOCUMENT = 'groups';
/** Who the settings file's groups are recorded as having been saved by, before the first save. */
export const SETTINGS_FILE_AUTHOR = '(settings file)';

/** What a save writes: the groups, and a group renamed for its accounts. */
export interface GroupsChange {
  body: StoredGroups;
  rename?: { from: string; to: string };
}

/**
 * The groups saved in the admin area: a config document with its history, and the version every
 * process checks per request (`group_rights_state`). Counts of what names a group for the admin's
 * list and for refusing a removal.
 */
export class GroupRepository implements GroupStore {
  /** The saved versions live in the portal config's history, read as it reads them. */
  private readonly versions: ConfigRepository;

  constructor(private readonly db: Db) {
    this.versions = new ConfigRepository(db);
  }

  async version(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('group_rights_state')
      .select('version')
      .where('id', '=', 1)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  async stored(): Promise<{ version: number; body: StoredGroups } | undefined> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const state = await trx.selectFrom('group_rights_state').select('version').where('id', '=', 1).executeTakeFirst();
      const version = Number(state?.version ?? 0);
      if (version === 0) return undefined;
      const row = await trx
        .selectFrom('config_history')
        .select('body')
        .where('id', '=', version)
        .where('name', '=', GROUPS_DOCUMENT)
        .executeTakeFirst();
      return row ? { version, body: JSON.parse(row.body) as StoredGroups } : undefined;
    });
  }

  /**
   * Saves the groups `change` makes of those stored (undefined: none saved yet), in one transaction
   * that takes the version row first: concurrent saves take turns and each changes what the one
   * before it left. The first save records `seed` (the settings file's groups) before itself, so the
   * history can go back to them. A change that throws writes nothing.
   */
  async save(
    savedBy: string,
    seed: StoredGroups,
    change: (current: StoredGroups) => GroupsChange | Promise<GroupsChange>,
    restoredFrom: number | null = null,
  ): Promise<number> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const state = await trx
        .updateTable('group_rights_state')
        .set({ version: sql<number>`version` })
        .where('id', '=', 1)
        .returning('version')
        .executeTakeFirstOrThrow();
      const current = Number(state.version);
      const saved_at = new Date().toISOString();
      const record = async (body: StoredGroups, by: string, from: number | null) => {
        const text = JSON.stringify(body);
        await trx
          .insertInto('config_document')
          .values({ name: GROUPS_DOCUMENT, lang: '', body: text, updated_at: saved_at })
          .onConflict((oc) => oc.columns(['name', 'lang']).doUpdateSet({ body: text, updated_at: saved_at }))
          .execute();
        const entry = await trx
          .insertInto('config_history')
          .values({ name: GROUPS_DOCUMENT, lang: '', body: text, saved_by: by, saved_at, restored_from: from })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(entry.id);
      };
      let before = seed;
      if (current === 0) {
        await record(seed, SETTINGS_FILE_AUTHOR, null);
      } else {
        const row = await trx
          .selectFrom('config_history')
          .select('body')
          .where('id', '=', current)
          .executeTakeFirstOrThrow();
        before = JSON.parse(row.body) as StoredGroups;
      }
      const { body, rename } = await change(before);
      if (rename) {
        // An account that still holds the new name (a group removed from the file, say) keeps one row of it.
        await trx
          .deleteFrom('user_group')
          .where('group_name', '=', rename.to)
          .where('user_id', 'in', (eb) =>
            eb.selectFrom('user_group as held').select('held.user_id').where('held.group_name', '=', rename.from),
          )
          .execute();
        await trx
          .updateTable('user_group')
          .set({ group_name: rename.to })
          .where('group_name', '=', rename.from)
          .execute();
      }
      const id = await record(body, savedBy, restoredFrom);
      await trx.updateTable('group_rights_state').set({ version: id }).where('id', '=', 1).execute();
      return id;
    });
  }

  /** Saved versions, newest first (the portal config's history, document `groups`). */
  async history(limit: number) {
    const rows = await this.versions.history(GROUPS_DOCUMENT, '', limit);
    return rows.map((r) => ({ ...r, body: r.body as StoredGroups }));
  }

  async historyEntry(id: number): Promise<StoredGroups | undefined> {
    return (await this.versions.historyEntry(GROUPS_DOCUMENT, '', id)) as StoredGroups | undefined;
  }

  /** Accounts per group name. */
  async accountCounts(): Promise<Map<string, number>> {
    const rows = await this.db.kysely
      .selectFrom('user_group')
      .select(['group_name', (eb) => eb.fn.countAll().as('n')])
      .groupBy('group_name')
      .execute();
    return new Map(rows.map((r) => [r.group_name, Number(r.n)]));
  }

  /** Assets per group name their access list holds (the bin's too: they come back with it). */
  async assetCounts(): Promise<Map<string, number>> {
    const rows = await this.db.kysely
      .selectFrom('asset_access')
      .select(['group_name', (eb) => eb.fn.countAll().as('n')])
      .groupBy('group_name')
      .execute();
    return new Map(rows.map((r) => [r.group_name, Number(r.n)]));
  }

  /** Whether any asset's access list names the group (one index probe). */
  async namedByAssets(group: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('asset_access')
      .select('asset_id')
      .where('group_name', '=', group)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The groups with at least one account that is not disabled. */
  async groupsWithEnabledMembers(): Promise<Set<string>> {
    const rows = await this.db.kysely
      .selectFrom('user_group')
      .innerJoin('user_account', 'user_account.id', 'user_group.user_id')
      .select('user_group.group_name')
      .distinct()
      .where('user_account.disabled', '=', 0)
      .execute();
    return new Set(rows.map((r) => r.group_name));
  }
}
