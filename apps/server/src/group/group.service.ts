import type { z } from 'zod';
import type {
  changeGroupBodySchema,
  createGroupBodySchema,
  Group,
  GroupEntry,
  GroupList,
  GroupVersion,
} from '@vitrine/contract/groups';
import { requireGuiAdmin, type Auth } from '../auth/caller.ts';
import { conflict, notFound, validation } from '../http/errors.ts';
import { conversionSetTitle, type FileSettings } from '../settings.ts';
import { restrictedFields } from '../access/field-audience.ts';
import { groupsOfSettings, type GroupRights, type StoredGroups } from '../access/group-rights.ts';
import type { GroupRepository, GroupsChange } from './group.repository.ts';

type CreateInput = z.output<typeof createGroupBodySchema>;
type ChangeInput = z.output<typeof changeGroupBodySchema>;

/** The caller of `vitrine groups …`: an admin without an account, whom last-admin protection does not name. */
export const commandLine: Auth = {
  userId: null,
  name: 'vitrine (command line)',
  groups: [],
  isAssetUser: false,
  isGuiAdmin: true,
  sessionId: null,
  locale: null,
  expired: false,
};

const ID = /^[1-9]\d{0,15}$/;

/**
 * Groups and their rights in the admin area (issue #50, decision 0260): list, create, change,
 * rename, remove, history and rollback. Every call is the admins'. Each save stores every group (the
 * settings file's on the first save) and applies on the next request of every process (GroupRights).
 */
export class GroupService {
  constructor(
    private readonly groups: GroupRepository,
    private readonly rights: GroupRights,
    private readonly file: FileSettings,
  ) {}

  /** The audience-limited fields of the settings file: the only ones a group's `fields` may name. */
  private audienceFields(): string[] {
    return [...restrictedFields(this.file.fields).keys()].sort();
  }

  /** What the first save starts from: the settings file's groups. */
  private seed(): StoredGroups {
    return { groups: groupsOfSettings(this.file), fields: this.audienceFields() };
  }

  /** The keys of the settings file that name a group (they keep naming it whatever the admin area says). */
  private settingsNaming(name: string): string[] {
    const keys: string[] = [];
    if (this.file.guest.groups.includes(name)) keys.push('guest.groups');
    if (this.file.catalogue.defaultAccessGroups.includes(name)) keys.push('catalogue.defaultAccessGroups');
    for (const kind of ['oidc', 'saml'] as const) {
      for (const p of this.file.sso[kind]) {
        const mapped = Object.values(p.groupMap).flat();
        if (mapped.includes(name) || p.defaultGroups.includes(name)) keys.push(`sso.${kind}.${p.name}`);
      }
    }
    return keys;
  }

  private setsNaming(name: string): number[] {
    return this.file.conversionSets.filter((s) => s.userGroups.includes(name)).map((s) => s.id);
  }

  async list(auth: Auth): Promise<GroupList> {
    requireGuiAdmin(auth);
    const rights = await this.rights.refresh();
    const [accounts, assets] = await Promise.all([this.groups.accountCounts(), this.groups.assetCounts()]);
    const entries: GroupEntry[] = rights.groups.map((g) => ({
      ...g,
      accounts: accounts.get(g.name) ?? 0,
      assets: assets.get(g.name) ?? 0,
      conversionSets: this.setsNaming(g.name),
      settings: this.settingsNaming(g.name),
    }));
    return {
      source: rights.source,
      version: rights.source === 'admin' ? rights.version : null,
      groups: entries,
      audienceFields: this.audienceFields(),
      conversionSets: [
        { id: 0, title: conversionSetTitle(this.file, 0, [auth.locale ?? 'en', 'en']) },
        ...this.file.conversionSets.map((s) => ({
          id: s.id,
          title: conversionSetTitle(this.file, s.id, [auth.locale ?? 'en', 'en']),
        })),
      ],
    };
  }

  async create(auth: Auth, input: CreateInput): Promise<GroupList> {
    requireGuiAdmin(auth);
    const group: Group = { ...input, name: input.name.trim() };
    this.checkRights(group, 'body.');
    await this.save(auth, (current) => {
      if (current.groups.some((g) => g.name === group.name)) {
        throw conflict(`A group named ${group.name} exists already.`);
      }
      return { body: { ...current, groups: [...current.groups, group] } };
    });
    return this.list(auth);
  }

  async change(auth: Auth, name: string, input: ChangeInput): Promise<GroupList> {
    requireGuiAdmin(auth);
    const newName = input.name?.trim();
    const renaming = newName !== undefined && newName !== name;
    if (renaming) await this.checkRenamable(name);
    await this.save(auth, (current) => {
      const old = current.groups.find((g) => g.name === name);
      if (!old) throw notFound(`The group ${name}`);
      const { name: _n, ...rights } = input;
      const changed: Group = { ...old, ...rights, name: renaming ? newName : name };
      this.checkRights(changed, 'body.');
      if (renaming && current.groups.some((g) => g.name === newName)) {
        throw conflict(`A group named ${newName} exists already.`);
      }
      const change: GroupsChange = {
        body: { ...current, groups: current.groups.map((g) => (g.name === name ? changed : g)) },
      };
      if (renaming) change.rename = { from: name, to: newName };
      return change;
    });
    return this.list(auth);
  }

  /**
   * A group whose name assets' access lists or the settings file hold is not renamed: the file is
   * not the admin area's to write, and renaming it in the access lists rewrites every asset of the
   * group and makes every process load its search index again (a million assets' worth). Those
   * groups are replaced instead: a new group, assets given to it, the old one removed.
   */
  private async checkRenamable(name: string): Promise<void> {
    const reasons: string[] = [];
    if (await this.groups.namedByAssets(name)) reasons.push("assets' access lists");
    const sets = this.setsNaming(name);
    if (sets.length) reasons.push(`conversion sets ${sets.join(', ')} (settings file)`);
    const keys = this.settingsNaming(name);
    if (keys.length) reasons.push(`the settings file (${keys.join(', ')})`);
    if (reasons.length) {
      throw conflict(
        `The group ${name} cannot be renamed while ${reasons.join(' and ')} name it: make a new group, give it the assets and accounts, then remove ${name}.`,
      );
    }
  }

  async remove(auth: Auth, name: string): Promise<GroupList> {
    requireGuiAdmin(auth);
    const [accounts, assets] = await Promise.all([this.groups.accountCounts(), this.groups.assetCounts()]);
    const reasons: string[] = [];
    const members = accounts.get(name) ?? 0;
    if (members) reasons.push(`${members} account${members === 1 ? '' : 's'}`);
    const held = assets.get(name) ?? 0;
    if (held) reasons.push(`the access lists of ${held} asset${held === 1 ? '' : 's'}`);
    const sets = this.setsNaming(name);
    if (sets.length) reasons.push(`conversion set${sets.length === 1 ? '' : 's'} ${sets.join(', ')}`);
    const keys = this.settingsNaming(name);
    if (keys.length) reasons.push(`the settings file (${keys.join(', ')})`);
    await this.save(auth, (current) => {
      if (!current.groups.some((g) => g.name === name)) throw notFound(`The group ${name}`);
      if (reasons.length)
        throw conflict(`The group ${name} cannot be removed while it is named by ${reasons.join(', ')}.`);
      return { body: { ...current, groups: current.groups.filter((g) => g.name !== name) } };
    });
    return this.list(auth);
  }

  async history(auth: Auth, limit: number): Promise<{ versions: GroupVersion[] }> {
    requireGuiAdmin(auth);
    const rows = await this.groups.history(limit);
    return {
      versions: rows.map(({ body, ...row }) => ({ ...row, groups: body.groups.map((g) => g.name) })),
    };
  }

  /** Saves an earlier version again, as a new version; refused when it would leave no admin. */
  async rollback(auth: Auth, id: string): Promise<GroupList> {
    requireGuiAdmin(auth);
    if (!ID.test(id))
      throw validation('id must be the number of a version of the groups', [
        { path: 'params.id', message: 'must be a positive whole number' },
      ]);
    const body = await this.groups.historyEntry(Number(id));
    if (!body) throw notFound(`The version ${id} of the groups`);
    await this.save(auth, () => ({ body }), Number(id));
    return this.list(auth);
  }

  /**
   * One save of the groups: `change` makes the new groups from those in force; admin rights must
   * survive it (no admin group with members left, or the caller's own admin rights gone: 409).
   */
  private async save(
    auth: Auth,
    change: (current: StoredGroups) => GroupsChange,
    restoredFrom: number | null = null,
  ): Promise<void> {
    // Read before the save's transaction, which holds SQLite's one connection until it ends.
    const withMembers = await this.groups.groupsWithEnabledMembers();
    await this.groups.save(
      auth.name ?? '',
      this.seed(),
      (current) => {
        const next = change(current);
        // Fields limited in the settings file since the last save become the saved groups' to decide.
        next.body = { ...next.body, fields: [...new Set([...next.body.fields, ...this.audienceFields()])] };
        keepAdmins(auth, current, next, withMembers);
        return next;
      },
      restoredFrom,
    );
    await this.rights.refresh();
  }

  /** A group's rights name conversion sets and fields that exist: otherwise a 400 naming the key. */
  private checkRights(group: Group, prefix: string): void {
    const sets = new Set([0, ...this.file.conversionSets.map((s) => s.id)]);
    for (const [i, id] of group.downloadSets.entries()) {
      if (!sets.has(id)) {
        throw validation(`downloadSets: there is no conversion set ${id}.`, [
          { path: `${prefix}downloadSets.${i}`, message: `there is no conversion set ${id}` },
        ]);
      }
    }
    const fields = this.audienceFields();
    for (const [i, field] of group.fields.entries()) {
      if (!fields.includes(field)) {
        throw validation(
          `fields: ${field} is not a field the settings file limits to an audience (${fields.join(', ') || 'none is'}).`,
          [{ path: `${prefix}fields.${i}`, message: `${field} is not an audience-limited field` }],
        );
      }
    }
    group.downloadSets = [...new Set(group.downloadSets)];
    group.fields = [...new Set(group.fields)];
  }
}

/**
 * Admin rights survive a save: the caller keeps one of its admin groups, and while some admin group
 * has members that can log in, one such group stays an admin group (409 otherwise).
 */
function keepAdmins(auth: Auth, before: StoredGroups, after: GroupsChange, withMembers: ReadonlySet<string>): void {
  const renamed = (name: string) => (after.rename?.from === name ? after.rename.to : name);
  const adminsBefore = before.groups.filter((g) => g.guiAdmin).map((g) => g.name);
  const adminsAfter = new Set(after.body.groups.filter((g) => g.guiAdmin).map((g) => g.name));
  const own = auth.groups.filter((g) => adminsBefore.includes(g));
  if (own.length > 0 && own.every((g) => !adminsAfter.has(renamed(g)))) {
    throw conflict('You cannot take admin rights from your own last admin group; another admin can.');
  }
  const staffedBefore = adminsBefore.filter((g) => withMembers.has(g));
  const staffedAfter = [...withMembers].filter((g) => adminsAfter.has(renamed(g)));
  if (staffedBefore.length > 0 && staffedAfter.length === 0) {
    throw conflict(
      `${staffedBefore.join(', ')} ${staffedBefore.length === 1 ? 'is the last admin group' : 'are the last admin groups'} with members: one must keep admin rights.`,
    );
  }
}
