import type { MediaFile } from '@vitrine/contract/paths';
import type { AssetDoc } from '@vitrine/contract/search';
import { columnOf, pickLanguage, type FieldRegistry, type ValueRow } from '@vitrine/search-engine';
import type { AssetBatch } from './search.repository.ts';

export interface PresentOptions {
  /** The caller's content language (Accept-Language, else the session's locale). */
  lang: string;
  /** Signs a media URL (AccessService.mediaUrl) for an asset the caller may see. */
  mediaUrl: (file: MediaFile) => string;
  fields: FieldRegistry;
  /** Fields the caller may not see (AccessService.hiddenFields): never in its docs. */
  hidden: ReadonlySet<string>;
  /** The thumbnail's placeholder (ThumbHash) of an asset, when it has one. */
  thumbhash?: (id: number) => string | undefined;
  /** Whether the caller bookmarked an asset (`isBookmarked`; left out without it). */
  bookmarked?: (id: number) => boolean;
}

/**
 * Asset rows → the AssetDoc of portal-spec §3 "Asset": id as a string, a signed thumbnail URL,
 * built-in columns, configured fields (lists for multi-valued ones, per-language values in the
 * caller's language) and asset_groups. Answers the docs in the order of `ids`, skipping missing ones.
 */
export function presentAssets(batch: AssetBatch, ids: readonly number[], options: PresentOptions): AssetDoc[] {
  // Each asset's values by field, read once (not once per field).
  const byAsset = new Map<number, Map<string, ValueRow[]>>();
  for (const v of batch.values) {
    let fields = byAsset.get(v.asset_id);
    if (!fields) byAsset.set(v.asset_id, (fields = new Map<string, ValueRow[]>()));
    const list = fields.get(v.field);
    if (list) list.push(v);
    else fields.set(v.field, [v]);
  }
  const collections = new Map<number, number[]>();
  for (const c of batch.collections)
    collections.set(c.asset_id, [...(collections.get(c.asset_id) ?? []), c.collection_id]);
  const assets = new Map(batch.assets.map((a) => [a.id, a]));

  return ids.flatMap((id) => {
    const a = assets.get(id);
    if (!a) return [];
    const doc: AssetDoc = {
      id: String(a.id),
      url: options.mediaUrl({ kind: 'thumb', id: a.id }),
      asset_groups: [a.asset_group],
    };
    const thumbhash = options.thumbhash?.(a.id);
    if (thumbhash) doc.thumbhash = thumbhash;
    if (options.bookmarked) doc.isBookmarked = options.bookmarked(a.id);
    if (a.pixel_x) doc.width = a.pixel_x;
    if (a.pixel_y) doc.height = a.pixel_y;
    const values = byAsset.get(a.id);
    for (const f of options.fields.all) {
      const name = f.field_name;
      if (name === 'asset_groups' || options.hidden.has(name)) continue;
      if (name === 'meta_collections') {
        const ids = collections.get(a.id);
        if (ids) doc[name] = ids;
        continue;
      }
      if (f.storage === 'column') {
        const v = (a as unknown as Record<string, unknown>)[columnOf[name] ?? name];
        if (v != null) doc[name] = v;
        continue;
      }
      const own = values?.get(name);
      if (!own) continue;
      const chosen = f.localized ? pickLanguage(own, options.lang) : own;
      const typed = chosen.map((v) => (f.type === 'int' || f.type === 'float' ? Number(v.value) : v.value));
      doc[name] = f.multi_valued ? typed : typed[0];
    }
    return [doc];
  });
}
