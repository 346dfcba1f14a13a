import type { AssetColumns, AssetWrite } from './catalogue.repository.ts';

/** A value of a field: one, a list, or per content language one or a list. */
export type FieldValue = string | number | (string | number)[] | Record<string, string | (string | number)[]>;

/**
 * A compact description of an asset without a file, for synthetic catalogues (bench data) and
 * tests: every column may be left out for a plain default; values per field; access groups
 * (default: public) and collection ids. `newAssetWrite` makes the AssetWrite that
 * `CatalogueRepository.saveAssets`, the one write path, takes.
 */
export interface NewAsset extends Partial<AssetColumns> {
  values?: Record<string, FieldValue>;
  /** Groups that may see the asset (default: public). */
  access?: string[];
  collections?: number[];
}

let sequence = 0;

function valueRows(values: Record<string, FieldValue>): AssetWrite['values'] {
  const rows: AssetWrite['values'] = [];
  const add = (field: string, lang: string, list: (string | number)[]) => {
    for (const v of list) rows.push({ field, lang, value: String(v) });
  };
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number') add(field, '', [value]);
    else if (Array.isArray(value)) add(field, '', value);
    else for (const [lang, v] of Object.entries(value)) add(field, lang, Array.isArray(v) ? v : [v]);
  }
  return rows;
}

export function newAssetWrite(asset: NewAsset, now = Date.now()): AssetWrite {
  const { values, access, collections, ...columns } = asset;
  const n = ++sequence;
  const filename = columns.filename ?? `asset-${now}-${n}.jpg`;
  return {
    columns: {
      file_size: 1000,
      mime: 'image/jpeg',
      format: 'jpg',
      asset_group: 'image',
      ...columns,
      filename,
      source_path: columns.source_path ?? `/catalogue/${now}/${n}/${filename}`,
      sha256: columns.sha256 ?? n.toString(16).padStart(64, '0'),
    },
    values: valueRows(values ?? {}),
    accessGroups: access ?? ['public'],
    collectionIds: collections ?? [],
  };
}

/**
 * An asset as written with a change applied: the columns it names, the values of the fields it
 * names (other fields keep theirs), and its access groups and collections when it names them.
 */
export function changedAssetWrite(write: AssetWrite, change: NewAsset): AssetWrite {
  const { values, access, collections, ...columns } = change;
  const fields = new Set(Object.keys(values ?? {}));
  return {
    columns: { ...write.columns, ...columns },
    values: [...write.values.filter((v) => !fields.has(v.field)), ...valueRows(values ?? {})],
    accessGroups: access ?? write.accessGroups,
    collectionIds: collections ?? write.collectionIds,
  };
}
