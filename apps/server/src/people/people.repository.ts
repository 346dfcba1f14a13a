import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { nameKey } from '../db/name-key.ts';
import type { BenchAccount } from '../bench-data/accounts.ts';

/** One account as the People list shows it. */
export interface PersonRow {
  id: number;
  name: string;
  displayName: string | null;
  email: string | null;
  groups: { name: string; fromProvider: boolean }[];
  login: string;
  invited: boolean;
  lastLogin: number | null;
  created: number;
  disabled: boolean;
  blockedUntil: number | null;
}

export interface PeopleFilter {
  q?: string | undefined;
  group?: string | undefined;
  blocked?: boolean | undefined;
  disabled?: boolean | undefined;
  login?: string | undefined;
  sort: 'name' | 'lastLogin' | 'created';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface Belongings {
  bookmarks: number;
  shareLinks: number;
}

type Eb = ExpressionBuilder<Database, 'user_account'>;

/** `%`, `_` and the escape character itself match only themselves in a LIKE pattern. */
const likeAnywhere = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The throttling rows of an account's failed logins name it in `subject` as `account:<name key>`
 * (user/login-throttle.repository.ts `accountKey`); a row with a block in the future blocks it for
 * one client address.
 */
const blockOf = (eb: Eb, now: number) =>
  eb
    .selectFrom('login_attempt')
    .where('login_attempt.subject', '=', sql<string>`'account:' || user_account.name_key`)
    .where('login_attempt.blocked_until', '>', now);

interface PersonSqlRow {
  id: number;
  name: string;
  display_name: string | null;
  email: string | null;
  auth_source: string;
  disabled: number;
  created_at: number;
  last_login_at: number | null;
  name_key: string;
  no_password: unknown;
}

function toPerson(r: PersonSqlRow, groups: PersonRow['groups'], blockedUntil: number | undefined): PersonRow {
  return {
    id: Number(r.id),
    name: r.name,
    displayName: r.display_name,
    email: r.email,
    groups,
    login: r.auth_source,
    invited: r.auth_source === 'native' && Boolean(r.no_password),
    lastLogin: r.last_login_at == null ? null : Number(r.last_login_at),
    created: Number(r.created_at),
    disabled: Boolean(r.disabled),
    blockedUntil: blockedUntil ?? null,
  };
}

/**
 * Accounts for the admin area (issue #50): the People list, what goes with an account, and the
 * changes that must leave at least one admin, made in one transaction each.
 */
export class PeopleRepository {
  constructor(private readonly db: Db) {}

  /**
   * One page of accounts and whether more follow. No total is counted: a search of 100,000
   * accounts stops once it has a page, walking the index of the chosen order.
   */
  async list(filter: PeopleFilter, now: number): Promise<{ rows: PersonRow[]; more: boolean }> {
    let query = this.selectPeople();
    const q = filter.q?.trim();
    if (q) {
      const nameLike = likeAnywhere(nameKey(q));
      const textLike = likeAnywhere(q.toLowerCase());
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`user_account.name_key like ${nameLike} escape '\\'`,
          sql<boolean>`lower(user_account.email) like ${textLike} escape '\\'`,
          sql<boolean>`lower(user_account.display_name) like ${textLike} escape '\\'`,
        ]),
      );
    }
    if (filter.group !== undefined) {
      const group = filter.group;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('user_group')
            .select('user_group.user_id')
            .whereRef('user_group.user_id', '=', 'user_account.id')
            .where('user_group.group_name', '=', group),
        ),
      );
    }
    if (filter.disabled !== undefined) query = query.where('user_account.disabled', '=', filter.disabled ? 1 : 0);
    if (filter.login !== undefined) query = query.where('user_account.auth_source', '=', filter.login);
    if (filter.blocked !== undefined) {
      const blocked = filter.blocked;
      query = query.where((eb) => {
        const exists = eb.exists(blockOf(eb, now).select('login_attempt.name'));
        return blocked ? exists : eb.not(exists);
      });
    }
    const { order } = filter;
    // A search or a group walks the whole table: an index of the order would be walked row by row
    // to its end when few rows match (hundreds of ms at 100,000 accounts), so the matches are
    // sorted instead ("|| ''" and "+ 0" hide the index; bounded at tens of ms).
    const scan = Boolean(q) || filter.group !== undefined;
    const key = (column: 'name_key' | 'id' | 'last_login_at') =>
      scan
        ? sql`user_account.${sql.raw(column)} ${sql.raw(column === 'name_key' ? "|| ''" : '+ 0')}`
        : sql`user_account.${sql.raw(column)}`;
    const direction = sql.raw(order);
    query =
      filter.sort === 'name'
        ? query.orderBy(sql`${key('name_key')} ${direction}`)
        : filter.sort === 'created'
          ? query.orderBy(sql`${key('id')} ${direction}`)
          : // Never logged in counts as longest ago, on both databases.
            query
              .orderBy(sql`${key('last_login_at')} ${sql.raw(order === 'asc' ? 'asc nulls first' : 'desc nulls last')}`)
              .orderBy(sql`${key('id')} ${direction}`);
    const rows = await query
      .offset(filter.offset)
      .limit(filter.limit + 1)
      .execute();
    const page = rows.slice(0, filter.limit);
    const groups = await this.groupsOf(page.map((r) => Number(r.id)));
    const blocks = await this.blocksOf(
      page.map((r) => r.name_key),
      now,
    );
    return {
      more: rows.length > filter.limit,
      rows: page.map((r) => toPerson(r, groups.get(Number(r.id)) ?? [], blocks.get(r.name_key))),
    };
  }

  async byId(id: number, now: number): Promise<PersonRow | undefined> {
    const row = await this.selectPeople().where('user_account.id', '=', id).executeTakeFirst();
    return (
      row &&
      toPerson(
        row,
        (await this.groupsOf([id])).get(id) ?? [],
        (await this.blocksOf([row.name_key], now)).get(row.name_key),
      )
    );
  }

  private selectPeople() {
    return this.db.kysely
      .selectFrom('user_account')
      .select((eb) => [
        'user_account.id',
        'user_account.name',
        'user_account.display_name',
        'user_account.email',
        'user_account.auth_source',
        'user_account.disabled',
        'user_account.created_at',
        'user_account.last_login_at',
        'user_account.name_key',
        eb('user_account.password_hash', 'is', null).as('no_password'),
      ]);
  }

  /**
   * Until when each of these accounts (by name key) is blocked, read for one page only: as a column
   * of the list, PostgreSQL worked it out for every account before sorting them (half a second at
   * 100,000 accounts sorted by last login).
   */
  private async blocksOf(nameKeys: string[], now: number): Promise<Map<string, number>> {
    const byKey = new Map<string, number>();
    if (nameKeys.length === 0) return byKey;
    const rows = await this.db.kysely
      .selectFrom('login_attempt')
      .select((eb) => ['login_attempt.subject', eb.fn.max('login_attempt.blocked_until').as('until')])
      .where(
        'login_attempt.subject',
        'in',
        nameKeys.map((k) => `account:${k}`),
      )
      .where('login_attempt.blocked_until', '>', now)
      .groupBy('login_attempt.subject')
      .execute();
    for (const row of rows) {
      if (row.until != null && row.subject != null) byKey.set(row.subject.slice('account:'.length), Number(row.until));
    }
    return byKey;
  }

  private async groupsOf(ids: number[]): Promise<Map<number, PersonRow['groups']>> {
    const byUser = new Map<number, PersonRow['groups']>();
    if (ids.length === 0) return byUser;
    const rows = await this.db.kysely
      .selectFrom('user_group')
      .select(['user_id', 'group_name', 'origin'])
      .where('user_id', 'in', ids)
      .orderBy('user_id')
      .orderBy('group_name')
      .execute();
    for (const row of rows) {
      const list = byUser.get(Number(row.user_id)) ?? [];
      list.push({ name: row.group_name, fromProvider: row.origin === 'provider' });
      byUser.set(Number(row.user_id), list);
    }
    return byUser;
  }

  async belongings(id: number, db: Transaction<Database> | Db['kysely'] = this.db.kysely): Promise<Belongings> {
    const bookmarks = await db
      .selectFrom('bookmark')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    const shareLinks = await db
      .selectFrom('share_link')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    return { bookmarks: Number(bookmarks.n), shareLinks: Number(shareLinks.n) };
  }

  /**
   * Runs `change` in one transaction that fails (and undoes it) when afterwards no enabled account
   * is left in one of `adminGroups`; `lastAdmin` makes the error. On PostgreSQL the accounts of
   * those groups are locked first, so two admins demoting each other at once cannot both pass.
   */
  async guarded<T>(
    adminGroups: readonly string[],
    change: (trx: Transaction<Database>) => Promise<T>,
    lastAdmin: () => Error,
  ): Promise<T> {
    return this.db.kysely.transaction().execute(async (trx) => {
      if (this.db.dialect === 'postgres' && adminGroups.length) {
        await trx
          .selectFrom('user_account')
          .select('id')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('user_group')
              .select('user_id')
              .where('group_name', 'in', [...adminGroups]),
          )
          .orderBy('id')
          .forUpdate()
          .execute();
      }
      const result = await change(trx);
      if ((await this.enabledAdmins(trx, adminGroups)) === 0) throw lastAdmin();
      return result;
    });
  }

  private async enabledAdmins(db: Transaction<Database>, adminGroups: readonly string[]): Promise<number> {
    if (!adminGroups.length) return 0;
    const row = await db
      .selectFrom('user_account')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('disabled', '=', 0)
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('user_group')
          .select('user_id')
          .where('group_name', 'in', [...adminGroups]),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async setGroups(trx: Transaction<Database>, id: number, groups: string[]): Promise<void> {
    await trx.deleteFrom('user_group').where('user_id', '=', id).where('origin', '=', 'hand').execute();
    if (groups.length) {
      await trx
        .insertInto('user_group')
        .values(groups.map((group_name) => ({ user_id: id, group_name, origin: 'hand' as const })))
        .onConflict((oc) => oc.columns(['user_id', 'group_name']).doUpdateSet({ origin: 'hand' }))
        .execute();
    }
  }

  async setDetails(
    trx: Transaction<Database>,
    id: number,
    details: { displayName?: string | null; email?: string | null },
  ): Promise<void> {
    const set: { display_name?: string | null; email?: string | null } = {};
    if (details.displayName !== undefined) set.display_name = details.displayName;
    if (details.email !== undefined) set.email = details.email;
    if (Object.keys(set).length) await trx.updateTable('user_account').set(set).where('id', '=', id).execute();
  }

  /** Disabling ends every session of the account in the same transaction, so no process serves it again. */
  async setDisabled(trx: Transaction<Database>, id: number, disabled: boolean): Promise<void> {
    await trx
      .updateTable('user_account')
      .set({ disabled: disabled ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    if (disabled) await trx.deleteFrom('session').where('user_id', '=', id).execute();
  }

  /**
   * Removes the account with its bookmarks, share links (and the sessions of their visitors),
   * sessions, groups and open links. The download log and edit history keep the name they recorded.
   */
  async remove(trx: Transaction<Database>, id: number): Promise<void> {
    const shares = (await trx.selectFrom('share_link').select('id').where('user_id', '=', id).execute()).map((r) =>
      Number(r.id),
    );
    if (shares.length) {
      await trx.deleteFrom('session').where('share_id', 'in', shares).execute();
      await trx.deleteFrom('share_link_asset').where('share_id', 'in', shares).execute();
    }
    await trx.deleteFrom('bookmark').where('user_id', '=', id).execute();
    await trx.deleteFrom('share_link').where('user_id', '=', id).execute();
    await trx.deleteFrom('session').where('user_id', '=', id).execute();
    await trx.deleteFrom('user_group').where('user_id', '=', id).execute();
    await trx.deleteFrom('password_reset').where('user_id', '=', id).execute();
    await trx.deleteFrom('sso_code').where('user_id', '=', id).execute();
    await trx.deleteFrom('user_account').where('id', '=', id).execute();
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('user_account')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Fresh planner statistics after a bulk write, so the People list picks its indexes. */
  async analyze(): Promise<void> {
    await sql`analyze`.execute(this.db.kysely);
  }

  /** Writes synthetic accounts (`vitrine bench-data --accounts`) in one transaction per call. */
  async insertBench(accounts: readonly BenchAccount[]): Promise<void> {
    if (!accounts.length) return;
    await this.db.kysely.transaction().execute(async (trx) => {
      const ids = await trx
        .insertInto('user_account')
        .values(
          accounts.map((a) => ({
            name: a.name,
            name_key: nameKey(a.name),
            email: a.email,
            display_name: a.displayName,
            password_hash: null,
            auth_source: a.authSource,
            external_id: a.externalId,
            disabled: a.disabled ? 1 : 0,
            locale: null,
            created_at: a.createdAt,
            last_login_at: a.lastLoginAt,
          })),
        )
        .returning(['id', 'name'])
        .execute();
      // The order of RETURNING rows is not promised: each account is found by its name.
      const idOf = new Map(ids.map((r) => [r.name, Number(r.id)]));
      const groups = accounts.flatMap((a) =>
        a.groups.map((group_name) => ({ user_id: idOf.get(a.name) ?? 0, group_name, origin: a.groupOrigin })),
      );
      if (groups.length) await trx.insertInto('user_group').values(groups).execute();
    });
  }
}
