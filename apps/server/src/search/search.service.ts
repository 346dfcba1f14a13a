import { z } from 'zod';
import type { Collection } from '@vitrine/contract/collection';
import {
  defaultSuggestionFields,
  type AssetDoc,
  type FacetSelection,
  type IndexField,
  type SearchAnswer,
  type SearchQuery,
  type SuggestionGroup,
} from '@vitrine/contract/search';
import { DomainError, notFound, validation } from '../http/errors.ts';
import { requireAssetUser, type Auth } from '../session/auth.ts';
import type { Settings } from '../settings.ts';
import { presentAssets } from './asset-presenter.ts';
import { baseContentLanguages, SearchInputError, type EngineQuery, type SearchEngine } from './search-engine.ts';
import type { SearchRepository } from './search.repository.ts';

/** Rows of a pre-search on the dashboard (admin-spec §9). */
export const PRE_SEARCH_ROWS = 20;

const preSearchFacet = z.object({
  key: z.string(),
  values: z.array(z.union([z.string(), z.number()])).optional(),
  range: z.boolean().optional(),
  from: z.union([z.string(), z.number()]).optional(),
  to: z.union([z.string(), z.number()]).optional(),
});
const preSearchLang = z.object({ text: z.string().optional(), facets: z.array(preSearchFacet).optional() });
const preSearchSchema = z.object({
  key: z.string().min(1),
  translation: z.string().optional(),
  position: z.number().optional(),
  search: z.union([z.string(), z.record(z.string(), preSearchLang)]).optional(),
  sort: z.string().optional(),
  orientation: z.enum(['asc', 'desc']).optional(),
});
type PreSearch = z.infer<typeof preSearchSchema>;

export interface Caller {
  auth: Auth;
  /** The request's Accept-Language header. */
  acceptLanguage: string | undefined;
}

/** Search, assets by id, index fields and dashboard collections (portal-spec §7). */
export class SearchService {
  constructor(
    private readonly engine: SearchEngine,
    private readonly repository: SearchRepository,
    private readonly settings: Settings,
  ) {}

  private async language(caller: Caller): Promise<string> {
    const known = await this.contentLanguageList();
    const wanted = (caller.acceptLanguage ?? '')
      .split(',')
      .map((part) => part.split(';')[0].trim().toLowerCase().split('-')[0])
      .filter(Boolean);
    if (caller.auth.locale) wanted.push(caller.auth.locale.toLowerCase());
    return wanted.find((l) => known.includes(l)) ?? 'en';
  }

  private async contentLanguageList(): Promise<string[]> {
    return [...new Set([...baseContentLanguages, ...(await this.engine.contentLanguages())])].sort();
  }

  private async run(auth: Auth, query: EngineQuery): Promise<ReturnType<SearchEngine['search']>> {
    try {
      return await this.engine.search(auth.groups, query);
    } catch (err) {
      if (err instanceof SearchInputError) throw validation(err.message, [{ path: err.param, message: err.message }]);
      throw err;
    }
  }

  private async docs(caller: Caller, ids: number[]): Promise<AssetDoc[]> {
    // Access groups were checked by the engine; the presenter does not show them.
    const batch = await this.repository.batch(ids, 'all', false);
    return presentAssets(batch, ids, {
      lang: await this.language(caller),
      secret: this.settings.secret,
      fields: this.engine.fields,
    });
  }

  async search(caller: Caller, input: SearchQuery): Promise<SearchAnswer> {
    requireAssetUser(caller.auth);
    const [field, dir] = (input.solr_sort ?? 'score desc').split(' ') as [string, 'asc' | 'desc'];
    const ids = input.id === undefined ? undefined : parseIds(input.id, 'id');
    const result = await this.run(caller.auth, {
      q: input.solr_q.trim() === '' ? '*' : input.solr_q,
      lang: await this.language(caller),
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
    });
    return {
      response: { docs: await this.docs(caller, result.ids), numFound: result.numFound, start: input.solr_start },
      facetCounts: { facetFields: result.facetFields, facetRanges: result.facetRanges },
    };
  }

  /** Assets by id, those the caller may see, in the order asked for. */
  async assets(caller: Caller, assetid: string): Promise<{ response: { docs: AssetDoc[] } }> {
    requireAssetUser(caller.auth);
    const ids = parseIds(assetid, 'assetid');
    const visible = await this.engine.visibleIds(caller.auth.groups, ids);
    return { response: { docs: await this.docs(caller, visible) } };
  }

  async suggestions(
    caller: Caller,
    input: { text: string; fields: string[]; preview: number },
  ): Promise<{ suggestions: SuggestionGroup[] }> {
    requireAssetUser(caller.auth);
    const fields = input.fields.length > 0 ? input.fields : defaultSuggestionFields;
    try {
      const lang = await this.language(caller);
      return { suggestions: await this.engine.suggest(caller.auth.groups, input.text, fields, input.preview, lang) };
    } catch (err) {
      if (err instanceof SearchInputError) throw validation(err.message, [{ path: err.param, message: err.message }]);
      throw err;
    }
  }

  fields(auth: Auth): { visible_fields: IndexField[] } {
    requireReader(auth);
    return { visible_fields: this.engine.fields.visible() };
  }

  async contentLocales(auth: Auth): Promise<{ locales: string[] }> {
    requireReader(auth);
    return { locales: await this.contentLanguageList() };
  }

  private async preSearches(): Promise<PreSearch[]> {
    const config = await this.repository.globalConfig();
    const data = (config as { dashboard?: { collections?: { data?: unknown } } } | undefined)?.dashboard?.collections
      ?.data;
    if (!Array.isArray(data)) return [];
    return data.flatMap((entry) => {
      const parsed = preSearchSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** The dashboard's collections: the config's pre-searches, then the DAM collections. */
  async listCollections(caller: Caller): Promise<{ collections: Collection[] }> {
    requireAssetUser(caller.auth);
    const preSearches = (await this.preSearches()).map((p, i): Collection => ({
      indicator: p.key,
      label: p.translation ?? p.key,
      ...(p.translation ? { translation: p.translation } : {}),
      ...(p.search !== undefined ? { search: p.search } : {}),
      ...(p.sort ? { sort: p.sort } : {}),
      ...(p.orientation ? { orientation: p.orientation } : {}),
      position: p.position ?? i,
    }));
    const thumbnails = await this.engine.collectionThumbnails(caller.auth.groups);
    const collections = (await this.repository.collections()).flatMap((c, i): Collection[] => {
      const newest = thumbnails.get(c.id);
      // A collection the caller sees nothing of is not offered.
      if (newest === undefined) return [];
      return [
        {
          indicator: `collection_${c.id}`,
          label: c.name,
          src: String(c.thumbnail_asset_id ?? newest),
          position: preSearches.length + i,
        },
      ];
    });
    return { collections: [...preSearches, ...collections] };
  }

  /** The first rows of a pre-search or DAM collection; configured fields the index lacks are reported. */
  async getCollection(
    caller: Caller,
    input: { collection: string; rows: number },
  ): Promise<{ response: { docs: AssetDoc[]; numFound: number }; errors?: string[] }> {
    requireAssetUser(caller.auth);
    const dam = /^collection_(\d+)$/.exec(input.collection);
    if (dam) {
      const id = Number(dam[1]);
      if (!(await this.engine.collectionsById()).has(id)) throw notFound(`The collection '${input.collection}'`);
      const result = await this.run(caller.auth, { q: '*', collection: id, rows: input.rows });
      return { response: { docs: await this.docs(caller, result.ids), numFound: result.numFound } };
    }
    const preSearch = (await this.preSearches()).find((p) => p.key === input.collection);
    if (!preSearch) throw notFound(`The collection '${input.collection}'`);
    const lang = await this.language(caller);
    const { query, errors } = this.preSearchQuery(preSearch, lang);
    try {
      const result = await this.engine.search(caller.auth.groups, { ...query, rows: input.rows });
      const docs = await this.docs(caller, result.ids);
      return { response: { docs, numFound: result.numFound }, ...(errors.length > 0 ? { errors } : {}) };
    } catch (err) {
      if (!(err instanceof SearchInputError)) throw err;
      return { response: { docs: [], numFound: 0 }, errors: [...errors, err.message] };
    }
  }

  private preSearchQuery(p: PreSearch, lang: string): { query: EngineQuery; errors: string[] } {
    const errors: string[] = [];
    let text = '*';
    let facets: z.infer<typeof preSearchFacet>[] = [];
    if (typeof p.search === 'string') text = p.search;
    else if (p.search) {
      const own = p.search[lang] ?? p.search.en ?? Object.values(p.search)[0];
      text = own?.text?.trim() || '*';
      facets = own?.facets ?? [];
    }
    const filter: FacetSelection[] = [];
    for (const f of facets) {
      if (!this.engine.fields.get(f.key)) {
        errors.push(`The pre-search '${p.key}' filters by the field '${f.key}', which the index does not have.`);
        continue;
      }
      const values = (f.values ?? []).map(String);
      if (f.from !== undefined || f.to !== undefined) values.push(`${f.from ?? '*'} TO ${f.to ?? '*'}`);
      filter.push({ key: f.key, values, range: f.range ?? (f.from !== undefined || f.to !== undefined) });
    }
    let sort: EngineQuery['sort'];
    if (p.sort) {
      if (this.engine.fields.isSortable(p.sort)) sort = { field: p.sort, dir: p.orientation ?? 'desc' };
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
      throw new DomainError('validation', `'${String(p)}' in ${param} is not an asset id.`, {
        details: [{ path: param, message: 'must list positive whole numbers' }],
      });
    }
    return n;
  });
}
