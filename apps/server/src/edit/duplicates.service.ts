import type { DuplicateGroup, DuplicateMember, duplicatesCall } from '@vitrine/contract/alike';
import type { CallParsedQuery } from '@vitrine/contract/call';
import { MAX_SEARCH_ROWS } from '@vitrine/contract/endpoints';
import type { AssetDoc } from '@vitrine/contract/search';
import type { AccessService } from '../access/access.service.ts';
import type { Auth } from '../auth/caller.ts';
import { isEditor } from '../access/editor.ts';
import type { GroupRights } from '../access/group-rights.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { SignatureRepository } from '../alike/signature.repository.ts';

type Report = { total: number; groups: DuplicateGroup[] };

/** Who asks, as the search service takes it (its `Caller`), so the titles come in the caller's language. */
export interface Caller {
  auth: Auth;
  acceptLanguage: string | undefined;
  client: string;
}

/** What the report needs of the catalogue: assets' docs as the caller sees them, and collection names. */
export interface DuplicateFacts {
  /** Docs of assets in the caller's content language, without the fields it may not see (SearchService.assets). */
  docs(caller: Caller, ids: readonly number[]): Promise<AssetDoc[]>;
  collections(): Promise<readonly { id: number; name: string }[]>;
  /** The catalogue's change generation: every write of assets or signatures moves it on. */
  generation(): Promise<number>;
}

type Found = Awaited<ReturnType<SignatureRepository['duplicates']>>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const date = (v: unknown): string | undefined => (typeof v === 'number' ? new Date(v).toISOString() : undefined);

/**
 * The duplicates report (issue #52) for editors: groups of exact copies (one checksum) and of near
 * copies (visual signatures), of the assets the caller may edit only. A member the caller may not
 * see is left out before anything is counted, so a group that is a duplicate only through such an
 * asset is not reported at all and the report's size tells nothing of it.
 */
export class DuplicatesService {
  constructor(
    private readonly signatures: SignatureRepository,
    private readonly access: AccessService,
    private readonly rights: Pick<GroupRights, 'current'>,
    private readonly facts: DuplicateFacts,
  ) {}

  /** The groups of the catalogue as of a generation, made once for every caller and page (or being made). */
  private found: { generation: number; groups: Promise<Found> } | undefined;

  /**
   * The catalogue's groups, before anyone's rights: kept until the catalogue changes, so paging the
   * report and several editors asking at once cost one grouping, which at 100,000 pictures takes a
   * second or more.
   */
  private async groups(): Promise<Found> {
    const generation = await this.facts.generation();
    if (this.found?.generation !== generation) {
      const groups = this.signatures.duplicates();
      this.found = { generation, groups };
      // A failed grouping is not kept: the next caller tries again.
      groups.catch(() => {
        if (this.found?.groups === groups) this.found = undefined;
      });
    }
    return this.found.groups;
  }

  async report(caller: Caller, query: CallParsedQuery<typeof duplicatesCall>): Promise<Report> {
    const { auth } = caller;
    if (!isEditor(auth, this.rights.current().editorGroups))
      throw auth.expired ? unauthorized() : forbidden('Only editors may see the duplicates report.');
    const found = await this.groups();
    const named = [...new Set([...found.exact, ...found.near].flat())];
    const editable = named.length === 0 ? new Set<number>() : await this.access.editableIds(auth, named);
    const exact = found.exact.map((g) => g.filter((id) => editable.has(id))).filter((g) => g.length > 1);
    // A near group whose visible members are all one file is an exact group already.
    const groupOf = new Map(exact.flatMap((g, i) => g.map((id) => [id, i] as const)));
    const near = found.near
      .map((g) => g.filter((id) => editable.has(id)))
      .filter((g) => g.length > 1 && new Set(g.map((id) => groupOf.get(id) ?? `own ${id}`)).size > 1);
    const all = [
      ...exact.map((ids) => ({ kind: 'exact' as const, ids })),
      ...near.map((ids) => ({ kind: 'near' as const, ids })),
    ];
    const page = all.slice(query.start, query.start + query.rows);
    const members = await this.members(caller, [...new Set(page.flatMap((g) => g.ids))]);
    return {
      total: all.length,
      groups: page.map((g) => ({
        kind: g.kind,
        members: g.ids.flatMap((id) => {
          const m = members.get(id);
          return m ? [m] : [];
        }),
      })),
    };
  }

  private async members(caller: Caller, ids: number[]): Promise<Map<number, DuplicateMember>> {
    const out = new Map<number, DuplicateMember>();
    if (ids.length === 0) return out;
    const names = new Map((await this.facts.collections()).map((c) => [c.id, c.name]));
    for (let i = 0; i < ids.length; i += MAX_SEARCH_ROWS) {
      for (const doc of await this.facts.docs(caller, ids.slice(i, i + MAX_SEARCH_ROWS))) {
        const collections = Array.isArray(doc.meta_collections) ? (doc.meta_collections as unknown[]) : [];
        out.set(Number(doc.id), {
          id: doc.id,
          title: text(doc.title),
          filename: text(doc.filename),
          format: text(doc.format),
          width: int(doc.pixel_x),
          height: int(doc.pixel_y),
          fileSize: int(doc.file_size),
          created: date(doc.created),
          added: date(doc.imp_date),
          collections: collections.flatMap((c) => {
            const name = typeof c === 'number' ? names.get(c) : undefined;
            return name === undefined ? [] : [{ id: c as number, name }];
          }),
          thumbnail: doc.url,
        });
      }
    }
    return out;
  }
}
