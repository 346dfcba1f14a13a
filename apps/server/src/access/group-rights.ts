import { setTimeout as sleep } from 'node:timers/promises';
import type { Group } from '@vitrine/contract/groups';
import type { FileSettings } from '../settings.ts';
import type { AccessRights } from './access.service.ts';
import { restrictedFields } from './field-audience.ts';
import { shareRulesOf, type ShareRules } from './share-rule.ts';

/**
 * The one source of groups and their rights (decision 0260, docs/security.md "Groups: the admin
 * area and the settings file"). Until an admin saves groups in the admin area, the settings file
 * decides everything exactly as it always did (`groups`, `shareLinks.groups`, `editing.group`, the
 * fields' `visibleTo`). The first save stores every group with its rights, and from then on the
 * stored groups replace those keys of the file as a whole. What stays in the file: the conversion
 * sets (and the groups they name), guests' groups, which fields are limited to an audience, share
 * links' lifetimes, single sign-on's group maps.
 *
 * Every reader of groups asks `GroupRights.current()`: the access rule's download rights and field
 * audiences (AccessService), portal access and admin rights (AuthService), share rights, editors and
 * the names accounts may hold.
 */

/** What the admin area stores: every group, and the audience-limited fields it knew when it saved. */
export interface StoredGroups {
  groups: Group[];
  /**
   * The audience-limited fields of the settings file when the groups were saved. A field limited in
   * the file later, which no saved group could be given yet, keeps the audience the file gives it.
   */
  fields: string[];
}

/** The groups as the settings file describes them, in the admin area's terms (the first save starts from them). */
export function groupsOfSettings(file: FileSettings): Group[] {
  const restricted = restrictedFields(file.fields);
  const fieldsOf = (name: string) =>
    [...restricted]
      .filter(([, who]) => who.includes(name))
      .map(([field]) => field)
      .sort();
  const groups: Group[] = file.groups.map((g) => ({
    name: g.name,
    portalAccess: g.portalAccess,
    guiAdmin: g.guiAdmin,
    downloadSets: [...g.downloadSets],
    shareLinks: file.shareLinks.groups.includes(g.name),
    editors: g.name === file.editing.group,
    fields: fieldsOf(g.name),
  }));
  // The editors group is a group of its own whether or not `groups` names it; alone it gives nothing else.
  if (!groups.some((g) => g.name === file.editing.group)) {
    groups.push({
      name: file.editing.group,
      portalAccess: false,
      guiAdmin: false,
      downloadSets: [],
      shareLinks: false,
      editors: true,
      fields: fieldsOf(file.editing.group),
    });
  }
  return groups;
}

/** The rights in force at one moment, with every form the readers need worked out once. */
export class RightsSnapshot {
  /** Where the groups come from: the settings file alone, or what the admin area saved. */
  readonly source: 'settings' | 'admin';
  /** The history entry of the saved groups in force; 0 while the settings file decides. */
  readonly version: number;
  /** The groups, in the admin area's terms. */
  readonly groups: readonly Group[];
  /** What the access rule reads: download rights, field audiences, guests' groups. */
  readonly access: AccessRights;
  readonly share: ShareRules;
  readonly editorGroups: readonly string[];
  /** The groups a guest holds (none while guests may not use the portal). */
  readonly guestGroups: readonly string[];
  private readonly byName: ReadonlyMap<string, Group>;

  private constructor(file: FileSettings, stored: { version: number; body: StoredGroups } | undefined) {
    // Callers without an account are judged by the guest groups for fields, whether or not guests may log in.
    const guest = { groups: file.guest.groups };
    const fileAudiences = restrictedFields(file.fields);
    if (!stored) {
      // The settings file alone, read exactly as before there was an admin area for groups.
      this.source = 'settings';
      this.version = 0;
      this.groups = groupsOfSettings(file);
      this.access = {
        groups: file.groups,
        conversionSets: file.conversionSets,
        restricted: fileAudiences,
        guest,
      };
      this.share = shareRulesOf(file);
      this.editorGroups = [file.editing.group];
    } else {
      const { groups, fields: known } = stored.body;
      this.source = 'admin';
      this.version = stored.version;
      this.groups = groups;
      const restricted = new Map<string, readonly string[]>();
      for (const [field, fileAudience] of fileAudiences) {
        restricted.set(
          field,
          known.includes(field) ? groups.filter((g) => g.fields.includes(field)).map((g) => g.name) : fileAudience,
        );
      }
      this.access = { groups, conversionSets: file.conversionSets, restricted, guest };
      this.share = {
        sharerGroups: groups.filter((g) => g.shareLinks && g.portalAccess).map((g) => g.name),
        maxLifetimeMs: file.shareLinks.maxDays * 86_400_000,
      };
      this.editorGroups = groups.filter((g) => g.editors).map((g) => g.name);
    }
    this.guestGroups = file.guest.enabled ? file.guest.groups : [];
    this.byName = new Map(this.groups.map((g) => [g.name, g]));
  }

  static ofSettings(file: FileSettings): RightsSnapshot {
    return new RightsSnapshot(file, undefined);
  }

  static ofStored(file: FileSettings, version: number, body: StoredGroups): RightsSnapshot {
    return new RightsSnapshot(file, { version, body });
  }

  /** The names of the groups accounts may be members of. */
  names(): string[] {
    return this.groups.map((g) => g.name);
  }

  group(name: string): Group | undefined {
    return this.byName.get(name);
  }

  /** What an account with these groups is: a portal user (any group gives portal access), an admin. */
  roleOf(groups: readonly string[]): { isAssetUser: boolean; isGuiAdmin: boolean } {
    const own = groups.map((g) => this.byName.get(g)).filter((g) => g !== undefined);
    return { isAssetUser: own.some((g) => g.portalAccess), isGuiAdmin: own.some((g) => g.guiAdmin) };
  }
}

/** Where saved groups are read: the version of the newest save (0: none), and the groups it saved. */
export interface GroupStore {
  version(): Promise<number>;
  stored(): Promise<{ version: number; body: StoredGroups } | undefined>;
}

/** How long a request waits for the version row before it goes on with the rights last read. */
export const VERSION_WAIT_MS = 2_000;

/**
 * The rights of this process, kept in memory and checked against the database once per request (one
 * row by its key): a save through any process applies on the next request of every process, without
 * a restart, and only a changed version reads the groups again. A database that does not answer
 * (within VERSION_WAIT_MS) is told to `onError`, and the request goes on with the rights last read:
 * what it needs of the database fails on its own, and calls that need none (readiness) still answer.
 */
export class GroupRights {
  private snapshot: RightsSnapshot;
  /** The load of a version under way, shared by the requests that found it new. */
  private loading: { version: number; done: Promise<RightsSnapshot> } | undefined;

  constructor(
    private readonly file: FileSettings,
    private readonly store?: GroupStore,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    this.snapshot = RightsSnapshot.ofSettings(file);
  }

  /** The rights as last checked (every request checks first: `refresh`). */
  current(): RightsSnapshot {
    return this.snapshot;
  }

  /** The rights in force now: the version in the database is read, the groups only when it changed. */
  async refresh(): Promise<RightsSnapshot> {
    if (!this.store) return this.snapshot;
    const store = this.store;
    const waited = new AbortController();
    try {
      const read = async () => {
        const version = await store.version();
        return version === this.snapshot.version ? this.snapshot : this.loadShared(version);
      };
      const late = sleep(VERSION_WAIT_MS, undefined, { signal: waited.signal }).then(() => {
        throw new Error(`the groups' version was not read within ${VERSION_WAIT_MS} ms`);
      });
      late.catch(() => undefined);
      return await Promise.race([read(), late]);
    } catch (err) {
      this.onError(err as Error);
      return this.snapshot;
    } finally {
      waited.abort();
    }
  }

  private loadShared(version: number): Promise<RightsSnapshot> {
    let loading = this.loading;
    if (loading?.version !== version) {
      const done = this.load();
      loading = { version, done };
      this.loading = loading;
      done
        .finally(() => {
          if (this.loading?.done === done) this.loading = undefined;
        })
        .catch(() => undefined);
    }
    return loading.done;
  }

  private async load(): Promise<RightsSnapshot> {
    const stored = await this.store?.stored();
    const next = stored
      ? RightsSnapshot.ofStored(this.file, stored.version, stored.body)
      : RightsSnapshot.ofSettings(this.file);
    // A slower load of an older version never replaces a newer one.
    if (next.version >= this.snapshot.version) this.snapshot = next;
    return this.snapshot;
  }
}
