import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Collection } from '@vitrine/contract/collection';
import {
  baseContentLanguages,
  QUERY_TOO_COSTLY,
  SearchInputError,
  type CatalogueWriting,
  type EngineQuery,
  type Progress,
  type SearchEngine,
  type WrittenChange,
} from '@vitrine/search-engine';
import type { PreSearch } from '@vitrine/contract/global-config';
import { acceptedLanguages } from '@vitrine/contract/formats';
import {
  defaultSuggestionFields,
  type AssetDoc,
  type FacetSelection,
  type IndexField,
  MAX_SEARCH_ROWS,
  type SearchAnswer,
  type SearchQuery,
  type SuggestionGroup,
} from '@vitrine/contract/search';
import type { AccessService } from '../access/access.service.ts';
import type { ConfigService } from '../config/config.service.ts';
import { notFound, queryTooCostly, validation } from '../http/errors.ts';
import { requireAssetUser, requireGuiAdmin, type Auth } from '../auth/caller.ts';
import type { Settings } from '../settings.ts';
import { presentAssets } from './asset-presenter.ts';
import { AssetRowsCache, joinRows } from './asset-rows.ts';
import { SNAPSHOT_FILE } from './create-engine.ts';
import type { SearchRepository } from './search.repository.ts';

export interface Caller {
  auth: Auth;
  /** The request's Accept-Language header. */
  acceptLanguage: string | undefined;
  /** The client's address, as the `trustProxy` setting lets the server see it. */
  client: string;
}

/** The per-client search limit (`rateLimits.search`): 429 `rate_limited` once it is reached. */
export interface SearchLimit {
  take(name: 'search', client: string): Promise<void>;
}

/** A search as the statistics count it: whose (guest or account, never who), what, how many found. */
export interface SearchEvent {
  kind: 'search';
  audience: 'guest' | 'account';
  text: string;
  facets: readonly string[];
  results: number;
  collection?: number | undefined;
}

/** Search, assets by id, index fields and dashboard collections (portal-spec §7). */
export class SearchService {
  constructor(
    private readonly engine: SearchEngine,
    private readonly repository: SearchRepository,
    private readonly access: AccessService,
    private readonly config: Pick<ConfigService, 'globalConfig'>,
    private readonly settings: Settings,
    /** Which of the docs the caller bookmarked (BookmarkService), for `isBookmarked`. */
    private readonly bookmarks?: { bookmarkedOf(auth: Auth, ids: readonly number[]): Promise<Set<number>> },
    private readonly limit?: SearchLimit,
    /** Statistics (insights/, wired in services.ts): only queued, never written on the search's path. */
    private readonly insights?: { record(event: SearchEvent): void },
  ) {
    this.rows = new AssetRowsCache(repository);
    engine.onChanged((ids) => this.rows.forget(ids));
  }

  /** The catalogue rows of assets shown in answers, kept until the index applies a change of them. */
  private readonly rows: AssetRowsCache;

  /**
   * Searches of callers without an account (guests, share links' visitors) count against their
   * client address; accounts are not limited here, so a whole office behind one address is not.
   */
  private async countSearch(caller: Caller): Promise<void> {
    if (caller.auth.userId === null) await this.limit?.take('search', caller.client);
  }

  /** True once the search index has been loaded (readiness). */
  get loaded(): boolean {
    return this.engine.loaded;
  }

  /**
   * How far the search index is behind the catalogue: changes not applied yet, seconds since it
   * last held the newest change (0 when it holds it), and the age of the index snapshot file;
   * undefined before the index was first loaded.
   */
  async indexLag(): Promise<{ changes: number; seconds: number; snapshotSeconds: number | undefined } | undefined> {
    const { applied, currentAt } = this.engine.position;
    if (applied === -1) return undefined;
    const [generation, snapshot] = await Promise.all([
      this.repository.generation(),
      stat(path.join(this.settings.dataDir, SNAPSHOT_FILE)).catch((err: NodeJS.ErrnoException) => {
        // No snapshot yet (a first load writes one).
        if (err.code === 'ENOENT') return undefined;
        throw err;
      }),
    ]);
    const now = Date.now();
    const changes = Math.max(0, generation - applied);
    return {
      changes,
      seconds: changes === 0 ? 0 : (now - currentAt) / 1000,
      snapshotSeconds: snapshot ? Math.max(0, now - snapshot.mtimeMs) / 1000 : undefined,
    };
  }

  /** Brings the search index up to date with the catalogue (after a bulk write), telling its progress. */
  async refresh(progress?: Progress): Promise<void> {
    await this.engine.refresh(progress);
  }

  /** Whether a change of these fields can be taken as written (CatalogueRepository.onCommitted). */
  takesAsWritten(fields: readonly string[]): boolean {
    return this.engine.takesAsWritten(fields);
  }

  /** A change this process committed, handed to the index with the values it wrote (CatalogueRepository.onCommitted). */
  async applyWritten(change: WrittenChange): Promise<boolean> {
    return this.engine.applyWritten(change);
  }

  /** Loads the search index while this process writes the catalogue (bench data), telling its progress. */
  async loadWhileWritten(writing: CatalogueWriting, progress?: Progress): Promise<void> {
    await this.engine.loadWhileWritten(writing, progress);
  }

  /** Writes the search index snapshot when it is behind the index (after an import, at shutdown). */
  async saveSnapshot(): Promise<void> {
    await this.engine.saveSnapshot();
  }

  /** At shutdown: writes the snapshot when it is behind, and stops holding catalogue changes back. */
  async close(): Promise<void> {
    try {
      await this.engine.saveSnapshot();
    } finally {
      await this.engine.leave();
    }
  }

  /**
   * The caller's content language among the catalogue's. `fresh: false` takes the languages the
   * index held at its last check, without asking the catalogue again: for a search, whose own check
   * follows at once (one catalogue read per search instead of three).
   */
  private async language(caller: Caller, fresh = true): Promise<string> {
    const known = await this.contentLanguageList(fresh);
    const wanted = acceptedLanguages(caller.acceptLanguage);
    if (caller.auth.locale) wanted.push(caller.auth.locale.toLowerCase());
    return wanted.find((l) => known.includes(l)) ?? 'en';
  }

  private async contentLanguageList(fresh = true): Promise<string[]> {
    return [...new Set([...baseContentLanguages, ...(await this.engine.contentLanguages(fresh))])].sort();
  }

  private async run(auth: Auth, query: EngineQuery): Promise<ReturnType<SearchEngine['search']>> {
    try {
      return await this.engine.search(this.access.searchGroups(auth), {
        ...query,
        ids: this.access.searchIds(auth, query.ids),
        hidden: this.access.hiddenFields(auth),
      });
    } catch (err) {
      if (err instanceof SearchInputError) throw inputError(err);
      throw err;
    }
  }

  /**
   * The docs of assets in the caller's language. Without `lang` the index is brought up to date
   * first (kept rows of assets another process changed are forgotten then); a search passes the
   * language it searched in, its index having just been checked.
   */
  private async docs(caller: Caller, ids: number[], language?: string): Promise<AssetDoc[]> {
    // Only ids the access rule let through come here; the presenter does not show access groups.
    const lang = language ?? (await this.language(caller));
    const [rows, bookmarked] = await Promise.all([
      this.rows.rows(ids),
      this.bookmarks?.bookmarkedOf(caller.auth, ids) ?? new Set<number>(),
    ]);
    return presentAssets(joinRows(rows.values()), ids, {
      lang,
      mediaUrl: (file) => this.access.mediaUrl(caller.auth, file),
      fields: this.engine.fields,
      hidden: this.access.hiddenFields(caller.auth),
      thumbhash: (id) => rows.get(id)?.thumbhash,
      bookmarked: (id) => bookmarked.has(id),
    });
  }

  async search(caller: Caller, input: SearchQuery): Promise<SearchAnswer> {
    requireAssetUser(caller.auth);
    await this.countSearch(caller);
    const [field, dir] = (input.solr_sort ?? 'score desc').split(' ') as [string, 'asc' | 'desc'];
    const ids = input.id === undefined ? undefined : parseIds(input.id, 'id');
    const lang = await this.language(caller, false);
    const result = await this.run(caller.auth, {
      q: input.solr_q.trim() === '' ? '*' : input.solr_q,
      lang,
      filter: input.filter,
      suggestions: input.suggestions_filter,
      facetFields: input.solr_facetfields,
      sort: { field, dir },
      start: input.solr_start,
      rows: input.solr_rows,
      ids,
      collection: input.meta_collections,
      facetLimit: input.facet_limit,
      facetOffset: input.facet_offset,
      facetSort: new Map(input.facet_sort.map(({ field, ...order }) => [field, order])),
    });
    // A search as the visitor asked it: its first page, not the next pages, more facet values or shared ids.
    if (input.solr_start === 0 && input.facet_offset === 0 && ids === undefined) {
      this.insights?.record({
        kind: 'search',
        audience: caller.auth.userId === null ? 'guest' : 'account',
        text: input.solr_q,
        facets: (input.filter ?? []).map((f) => f.key),
        results: result.numFound,
        collection: input.meta_collections,
      });
    }
    return {
      response: { docs: await this.docs(caller, result.ids, lang), numFound: result.numFound, start: input.solr_start },
      facetCounts: { facetFields: result.facetFields, facetRanges: result.facetRanges },
    };
  }

  /**
   * Assets by id, those the caller may see, in the order asked for: at most a search page of them
   * (`solr_rows`' largest), and counted as a search, since it costs as much as one.
   */
  async assets(caller: Caller, assetid: string): Promise<{ response: { docs: AssetDoc[] } }> {
    requireAssetUser(caller.auth);
    const ids = parseIds(assetid, 'assetid');
    if (ids.length > MAX_SEARCH_ROWS) {
      throw validation(`At most ${MAX_SEARCH_ROWS} assets can be asked for at once; ask for the others separately.`, [
        { path: 'assetid', message: `must list at most ${MAX_SEARCH_ROWS} ids (${ids.length} given)` },
      ]);
    }
    await this.countSearch(caller);
    const allowed = await this.access.checkAccess(caller.auth, 'asset.read', ids);
    const visible = ids.filter((id) => allowed.has(id));
    return { response: { docs: await this.docs(caller, visible) } };
  }

  async suggestions(
    caller: Caller,
    input: { text: string; fields: string[]; preview: number },
  ): Promise<{ suggestions: SuggestionGroup[] }> {
    requireAssetUser(caller.auth);
    await this.countSearch(caller);
    const hidden = this.access.hiddenFields(caller.auth);
    // The default fields come without those the caller may not see; fields it names are checked.
    const fields = input.fields.length > 0 ? input.fields : defaultSuggestionFields.filter((f) => !hidden.has(f));
    try {
      // The suggestions check the index themselves, at once.
      const lang = await this.language(caller, false);
      const groups = this.access.searchGroups(caller.auth);
      const only = this.access.searchIds(caller.auth);
      return {
        suggestions: await this.engine.suggest(groups, input.text, fields, input.preview, lang, only, hidden),
      };
    } catch (err) {
      if (err instanceof SearchInputError) throw inputError(err);
      throw err;
    }
  }

  fields(auth: Auth): { visible_fields: IndexField[] } {
    requireReader(auth);
    const hidden = this.access.hiddenFields(auth);
    return { visible_fields: this.engine.fields.visible().filter((f) => !hidden.has(f.field_name)) };
  }

  async contentLocales(auth: Auth): Promise<{ locales: string[] }> {
    requireReader(auth);
    return { locales: await this.contentLanguageList() };
  }

  /** The dashboard's collections: the config's pre-searches, then the DAM collections it shows. */
  async listCollections(caller: Caller): Promise<{ collections: Collection[] }> {
    requireAssetUser(caller.auth);
    const { data, dam } = (await this.config.globalConfig()).dashboard.collections;
    const preSearches = data.map((p): Collection => ({
      indicator: p.key,
      label: p.translation ?? p.key,
      ...(p.translation ? { translation: p.translation } : {}),
      search: p.search,
      ...(p.sort ? { sort: p.sort } : {}),
      ...(p.orientation ? { orientation: p.orientation } : {}),
      // The tile image an admin uploaded for it (config/thumbnail?id=src).
      ...(p.src ? { src: p.src } : {}),
      position: p.position,
    }));
    const all = await this.repository.collections();
    // A collection's own tile only where the caller sees it (not binned, not of other groups, still a
    // member); else the newest asset of it the caller sees.
    const thumbnails = await this.engine.collectionThumbnails(
      this.access.searchGroups(caller.auth),
      this.access.searchIds(caller.auth),
      new Map(all.flatMap((c) => (c.thumbnail_asset_id === null ? [] : [[c.id, c.thumbnail_asset_id] as const]))),
    );
    // Every DAM collection in the order they were made, or those the admin chose in the chosen order.
    const byId = new Map(all.map((c) => [c.id, c]));
    const shown = dam.all ? all : dam.ids.flatMap((id) => byId.get(id) ?? []);
    const collections = shown.flatMap((c): Collection[] => {
      const tile = thumbnails.get(c.id);
      // A collection the caller sees nothing of is not offered.
      if (tile === undefined) return [];
      return [{ indicator: `collection_${c.id}`, label: c.name, src: String(tile), position: 0 }];
    });
    return {
      collections: [...preSearches, ...collections.map((c, i) => ({ ...c, position: preSearches.length + i }))],
    };
  }

  /** Every DAM collection of the catalogue, for the admin choosing those the dashboard shows. */
  async damCollections(auth: Auth): Promise<{ collections: { id: number; name: string }[] }> {
    requireGuiAdmin(auth);
    return { collections: (await this.repository.collections()).map(({ id, name }) => ({ id, name })) };
  }

  /** The first rows of a pre-search or DAM collection; configured fields the index lacks are reported. */
  async getCollection(
    caller: Caller,
    input: { collection: string; rows: number },
  ): Promise<{ response: { docs: AssetDoc[]; numFound: number }; errors?: string[] }> {
    requireAssetUser(caller.auth);
    const dam = /^collection_(\d+)$/.exec(input.collection);
    // As a search: the catalogue's state is read once, by the engine's check before it answers.
    const lang = await this.language(caller, false);
    if (dam) {
      const id = Number(dam[1]);
      const result = await this.run(caller.auth, { q: '*', collection: id, rows: input.rows });
      if (!(await this.engine.collectionsById(false)).has(id)) throw notFound(`The collection '${input.collection}'`);
      return { response: { docs: await this.docs(caller, result.ids, lang), numFound: result.numFound } };
    }
    const preSearch = (await this.config.globalConfig()).dashboard.collections.data.find(
      (p) => p.key === input.collection,
    );
    if (!preSearch) throw notFound(`The collection '${input.collection}'`);
    const hidden = this.access.hiddenFields(caller.auth);
    const { query, errors } = this.preSearchQuery(preSearch, lang, hidden);
    try {
      const result = await this.engine.search(this.access.searchGroups(caller.auth), {
        ...query,
        rows: input.rows,
        ids: this.access.searchIds(caller.auth),
        hidden,
      });
      const docs = await this.docs(caller, result.ids, lang);
      return { response: { docs, numFound: result.numFound }, ...(errors.length > 0 ? { errors } : {}) };
    } catch (err) {
      if (!(err instanceof SearchInputError)) throw err;
      return { response: { docs: [], numFound: 0 }, errors: [...errors, err.message] };
    }
  }

  /**
   * A pre-search as an engine query in the caller's language (else English, else the first given).
   * A range facet `{from, to}` becomes the value 'from TO to' ('*' for an open end).
   */
  private preSearchQuery(
    p: PreSearch,
    lang: string,
    hidden: ReadonlySet<string>,
  ): { query: EngineQuery; errors: string[] } {
    const errors: string[] = [];
    const own = p.search[lang] ?? p.search.en ?? Object.values(p.search)[0];
    const text = own?.text.trim() || '*';
    const filter: FacetSelection[] = [];
    for (const f of own?.facets ?? []) {
      if (hidden.has(f.key) || !this.engine.fields.get(f.key)) {
        errors.push(`The pre-search '${p.key}' filters by the field '${f.key}', which the index does not have.`);
        continue;
      }
      if (f.range) {
        filter.push({
          key: f.key,
          values: [`${f.range.from.trim() || '*'} TO ${f.range.to.trim() || '*'}`],
          range: true,
        });
      } else filter.push({ key: f.key, values: f.values });
    }
    let sort: EngineQuery['sort'];
    if (p.sort) {
      if (!hidden.has(p.sort) && this.engine.fields.isSortable(p.sort))
        sort = { field: p.sort, dir: p.orientation ?? 'desc' };
      else errors.push(`The pre-search '${p.key}' sorts by '${p.sort}', which the index cannot sort by.`);
    }
    return { query: { q: text, lang, filter, sort }, errors };
  }
}

/** index/fields and content_locales serve the portal and the admin area. */
function requireReader(auth: Auth): void {
  if (auth.isGuiAdmin) return;
  requireAssetUser(auth);
}

/** Ids as a JSON array or comma-joined; anything else is a clear 400. */
export function parseIds(text: string, param: string): number[] {
  let parts: unknown[];
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      parts = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      throw validation(`${param} must be a JSON array or a comma-joined list of asset ids.`, [
        { path: param, message: 'must be valid JSON' },
      ]);
    }
  } else parts = trimmed === '' ? [] : trimmed.split(',');
  return parts.map((p) => {
    const n = typeof p === 'number' ? p : typeof p === 'string' && /^\s*\d+\s*$/.test(p) ? Number(p) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) {
      throw validation(`'${String(p)}' in ${param} is not an asset id.`, [
        { path: param, message: 'must list positive whole numbers' },
      ]);
    }
    return n;
  });
}

/** The 400 of a search the engine refused: too costly, or plain bad input. */
function inputError(err: SearchInputError): Error {
  const details = [{ path: err.param, message: err.message }];
  return err.errorId === QUERY_TOO_COSTLY ? queryTooCostly(err.message, details) : validation(err.message, details);
}
