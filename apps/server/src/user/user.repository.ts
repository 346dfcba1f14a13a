import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { nameKey } from '../db/name-key.ts';

export interface UserRecord {
  id: number;
  name: string;
  email: string | null;
  passwordHash: string | null;
  authSource: string;
  disabled: boolean;
  locale: string | null;
  groups: string[];
}

export interface NewUser {
  name: string;
  email?: string | null;
  passwordHash?: string | null;
  authSource?: string;
  externalId?: string | null;
  groups: string[];
  /** Where the groups come from: by hand (default) or the identity provider's `groupMap`. */
  groupOrigin?: GroupOrigin;
  displayName?: string | null;
}

/** 'hand': given by an admin or the CLI; 'provider': set by a single sign-on login. */
export type GroupOrigin = 'hand' | 'provider';

/** Accounts, their groups and password-reset links. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  async createUser(user: NewUser): Promise<number> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('user_account')
        .values({
          name: user.name.normalize('NFC'),
          name_key: nameKey(user.name),
          email: user.email ?? null,
          display_name: user.displayName ?? null,
          password_hash: user.passwordHash ?? null,
          auth_source: user.authSource ?? 'native',
          external_id: user.externalId ?? null,
          locale: null,
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (user.groups.length) {
        await trx
          .insertInto('user_group')
          .values(
            user.groups.map((group_name) => ({ user_id: row.id, group_name, origin: user.groupOrigin ?? 'hand' })),
          )
          .execute();
      }
      return row.id;
    });
  }

  /** User names are matched by their key (NFC, case-folded), however people type them. */
  async findByName(name: string): Promise<UserRecord | undefined> {
    return this.findWhere((eb) => eb('name_key', '=', nameKey(name)));
  }

  /** The account an identity provider knows by `externalId`. */
  async findByExternal(authSource: string, externalId: string): Promise<UserRecord | undefined> {
    return this.findWhere((eb) => eb.and([eb('auth_source', '=', authSource), eb('external_id', '=', externalId)]));
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    return this.findWhere((eb) => eb('id', '=', id));
  }

  private async findWhere(
    where: (eb: ExpressionBuilder<Database, 'user_account'>) => Expression<SqlBool>,
  ): Promise<UserRecord | undefined> {
    const row = await this.db.kysely
      .selectFrom('user_account')
      .select(['id', 'name', 'email', 'password_hash', 'auth_source', 'disabled', 'locale'])
      .where(where)
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...this.toRecord(row), groups: await this.groupsOf(row.id) };
  }

  async list(): Promise<UserRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('user_account')
      .select(['id', 'name', 'email', 'password_hash', 'auth_source', 'disabled', 'locale'])
      .orderBy('name')
      .execute();
    const groups = await this.db.kysely.selectFrom('user_group').selectAll().orderBy('group_name').execute();
    return rows.map((r) => ({
      ...this.toRecord(r),
      groups: groups.filter((g) => g.user_id === r.id).map((g) => g.group_name),
    }));
  }

  private toRecord(row: {
    id: number;
    name: string;
    email: string | null;
    password_hash: string | null;
    auth_source: string;
    disabled: number;
    locale: string | null;
  }): Omit<UserRecord, 'groups'> {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      passwordHash: row.password_hash,
      authSource: row.auth_source,
      disabled: Boolean(row.disabled),
      locale: row.locale,
    };
  }

  private async groupsOf(userId: number): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('user_group')
      .select('group_name')
      .where('user_id', '=', userId)
      .orderBy('group_name')
      .execute();
    return rows.map((r) => r.group_name);
  }

  /**
   * Replaces the account's groups of one origin; those of the other stay. A group given by hand
   * that the provider also gives stays given by hand, so the provider cannot take it away.
   */
  async setGroups(userId: number, groups: string[], origin: GroupOrigin = 'hand'): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_group').where('user_id', '=', userId).where('origin', '=', origin).execute();
      if (groups.length) {
        await trx
          .insertInto('user_group')
          .values(groups.map((group_name) => ({ user_id: userId, group_name, origin })))
          .onConflict((oc) =>
            origin === 'hand'
              ? oc.columns(['user_id', 'group_name']).doUpdateSet({ origin })
              : oc.columns(['user_id', 'group_name']).doNothing(),
          )
          .execute();
      }
    });
  }

  /** Remembers a login of the account (the People list shows the last one). */
  async recordLogin(userId: number, at: number): Promise<void> {
    await this.db.kysely.updateTable('user_account').set({ last_login_at: at }).where('id', '=', userId).execute();
  }

  async setEmail(userId: number, email: string | null): Promise<void> {
    await this.db.kysely.updateTable('user_account').set({ email }).where('id', '=', userId).execute();
  }

  /** Disabling an account also ends its sessions. */
  async setDisabled(userId: number, disabled: boolean): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('user_account')
        .set({ disabled: disabled ? 1 : 0 })
        .where('id', '=', userId)
        .execute();
      if (disabled) await trx.deleteFrom('session').where('user_id', '=', userId).execute();
    });
  }

  /** A new password ends every session and every open reset link of the user. */
  async setPassword(userId: number, passwordHash: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('user_account').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      await trx.deleteFrom('session').where('user_id', '=', userId).execute();
      await trx.deleteFrom('password_reset').where('user_id', '=', userId).execute();
    });
  }

  async setLocale(userId: number, locale: string): Promise<void> {
    await this.db.kysely.updateTable('user_account').set({ locale }).where('id', '=', userId).execute();
  }

  async createReset(
    idHash: string,
    userId: number,
    expiresAt: number,
    purpose: 'reset' | 'invitation' = 'reset',
  ): Promise<void> {
    await this.db.kysely
      .insertInto('password_reset')
      .values({ id: idHash, user_id: userId, created_at: Date.now(), expires_at: expiresAt, purpose })
      .execute();
  }

  /** Removes the account's open links of one kind (a new one replaces them). */
  async dropLinks(userId: number, purpose: 'reset' | 'invitation'): Promise<void> {
    await this.db.kysely
      .deleteFrom('password_reset')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .execute();
  }

  /** Removes reset links that expired. */
  async purgeResets(now: number): Promise<number> {
    const result = await this.db.kysely.deleteFrom('password_reset').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The account of a live reset link, without using it up (the link is taken once its work is done). */
  async liveReset(idHash: string): Promise<number | undefined> {
    const row = await this.db.kysely
      .selectFrom('password_reset')
      .select(['user_id', 'expires_at'])
      .where('id', '=', idHash)
      .executeTakeFirst();
    return row && row.expires_at > Date.now() ? row.user_id : undefined;
  }

  /** The user of an unexpired reset link; the link is used up either way. */
  async takeReset(idHash: string): Promise<number | undefined> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('password_reset')
        .where('id', '=', idHash)
        .returning(['user_id', 'expires_at'])
        .executeTakeFirst();
      return row && row.expires_at > Date.now() ? row.user_id : undefined;
    });
  }
}
