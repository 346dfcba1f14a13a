import type { IndexField } from './search.ts';

/**
 * The fields every catalogue has (portal-spec §3 "Asset", admin-spec §3 "Index field"). Settings may
 * declare further fields; `index/fields` answers both. `storage` says where the server keeps a
 * field: a column of the asset table (single value, sortable, range-capable) or rows of asset_value
 * (multi-valued and per-language text).
 */
export type FieldStorage = 'column' | 'value';

export interface BuiltInField extends IndexField {
  storage: FieldStorage;
  /** Text fields that full-text search reads. */
  searchable?: boolean;
  /** Values per content language (title in German and in English). */
  localized?: boolean;
  sortable?: boolean;
}

const f = (
  field_name: string,
  en: string,
  de: string,
  type: IndexField['type'],
  storage: FieldStorage,
  more: Partial<BuiltInField> = {},
): BuiltInField => ({
  field_name,
  default_labels: { en, de },
  is_facet: false,
  range_facet: false,
  multi_valued: false,
  origin: 'builtin',
  type,
  options: {},
  storage,
  ...more,
});

export const builtInFields: BuiltInField[] = [
  f('title', 'Title', 'Titel', 'text', 'value', { searchable: true, localized: true }),
  f('description', 'Description', 'Beschreibung', 'text', 'value', { searchable: true, localized: true }),
  f('keywords', 'Keywords', 'Schlagwörter', 'string', 'value', {
    multi_valued: true,
    is_facet: true,
    searchable: true,
    localized: true,
  }),
  f('category', 'Category', 'Kategorie', 'string', 'value', { is_facet: true, searchable: true, localized: true }),
  f('creator', 'Creator', 'Urheber', 'string', 'value', { is_facet: true, searchable: true }),
  f('copyright', 'Copyright', 'Copyright', 'string', 'value', { searchable: true }),
  f('license', 'Licence', 'Lizenz', 'string', 'value', { is_facet: true }),
  f('camera_make', 'Camera make', 'Kamerahersteller', 'string', 'value', { is_facet: true }),
  f('camera_model', 'Camera model', 'Kameramodell', 'string', 'value', { is_facet: true }),
  f('filename', 'File name', 'Dateiname', 'string', 'column', { searchable: true, sortable: true }),
  f('format', 'Format', 'Format', 'string', 'column', { is_facet: true }),
  f('asset_groups', 'Asset type', 'Asset-Typ', 'string', 'column', { is_facet: true, multi_valued: true }),
  f('created', 'Created', 'Erstellt', 'date', 'column', {
    range_facet: true,
    is_facet: true,
    sortable: true,
    options: { filterVal: 'date', multivalue: 'slider' },
  }),
  f('imp_date', 'Added', 'Hinzugefügt', 'date', 'column', {
    range_facet: true,
    is_facet: true,
    sortable: true,
    options: { filterVal: 'date', multivalue: 'slider' },
  }),
  f('file_size', 'File size', 'Dateigröße', 'int', 'column', {
    range_facet: true,
    is_facet: true,
    sortable: true,
    options: { filterVal: 'filesize', multivalue: 'slider' },
  }),
  f('rating', 'Rating', 'Bewertung', 'int', 'column', { is_facet: true, sortable: true }),
  f('color_code', 'Colour code', 'Farbcode', 'int', 'column', { is_facet: true }),
  f('pixel_x', 'Width (px)', 'Breite (px)', 'int', 'column', { sortable: true }),
  f('pixel_y', 'Height (px)', 'Höhe (px)', 'int', 'column', { sortable: true }),
  f('bbox_x', 'Width (mm)', 'Breite (mm)', 'float', 'column'),
  f('bbox_y', 'Height (mm)', 'Höhe (mm)', 'float', 'column'),
  f('duration', 'Duration (s)', 'Dauer (s)', 'float', 'column', { range_facet: true, sortable: true }),
  f('page_count', 'Pages', 'Seiten', 'int', 'column', { sortable: true }),
  f('gps_lat', 'Latitude', 'Breitengrad', 'float', 'column'),
  f('gps_lon', 'Longitude', 'Längengrad', 'float', 'column'),
  f('obj_dload_cnt', 'Downloads', 'Downloads', 'int', 'column', { sortable: true }),
  f('meta_collections', 'Collections', 'Sammlungen', 'int', 'value', { is_facet: true, multi_valued: true }),
];

/** Asset groups (portal-spec uses asset_groups containing 'video' to choose the video player). */
export const assetGroups = ['image', 'video', 'document', '3d', 'audio'] as const;
export type AssetGroup = (typeof assetGroups)[number];

/** Colour codes (portal-spec §3 "Color codes"). */
export const colorCodes = ['none', 'red', 'orange', 'yellow', 'green', 'blue', 'purple', 'grey'] as const;
