import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { IndexField } from '@vitrine/contract/search';
import type { RangeKind } from './searchState.ts';

export type FacetKind = 'checkbox' | 'radio' | 'slider';

/** A facet as the sidebar shows it (portal-spec §3 "Facet config"). */
export interface FacetDef {
  field: string;
  translation?: string;
  kind: FacetKind;
  range: RangeKind;
  preview: number;
}

/** Facet value default preview (portal-spec §9). */
const DEFAULT_PREVIEW = 10;

function rangeKind(filterVal: string | undefined, field: IndexField | undefined): RangeKind {
  if (filterVal === 'date' || filterVal === 'datetime' || (!filterVal && field?.type === 'date')) return 'date';
  if (filterVal === 'filesize' || (!filterVal && field?.field_name === 'file_size')) return 'filesize';
  return 'other';
}

/**
 * The sidebar's facets: the configured ones in position order; with none configured, every facet
 * field of the index (range facets as sliders), so a fresh portal can be filtered at all.
 */
export function facetDefs(config: GlobalConfig, fields: readonly IndexField[]): FacetDef[] {
  const byName = new Map(fields.map((f) => [f.field_name, f]));
  if (config.facets.length > 0) {
    return [...config.facets]
      .sort((a, b) => a.position - b.position)
      .map((f) => {
        const index = byName.get(f.field_name);
        const range = f.range_facet || index?.range_facet === true;
        return {
          field: f.field_name,
          translation: f.translation,
          kind: range ? 'slider' : f.options.multivalue === 'slider' ? 'checkbox' : f.options.multivalue,
          range: rangeKind(f.options.filterVal, index),
          preview: f.options.preview,
        };
      });
  }
  return fields
    .filter((f) => f.is_facet)
    .map((f) => ({
      field: f.field_name,
      kind: f.range_facet ? 'slider' : (f.options.multivalue ?? 'checkbox') === 'radio' ? 'radio' : 'checkbox',
      range: rangeKind(f.options.filterVal, f),
      preview: f.options.preview ?? DEFAULT_PREVIEW,
    }));
}

/** A file size in a human-readable form: base 1000, three significant digits (portal-spec §3). */
export function formatFileSize(bytes: number, lang: string): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${new Intl.NumberFormat(lang, { maximumSignificantDigits: 3 }).format(v)} ${units[u]}`;
}

/** A short localised date (portal-spec §3 "Field configuration"). */
export function formatDate(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeZone: 'UTC' }).format(new Date(ms));
}

export function formatRangeValue(value: number, kind: RangeKind, lang: string): string {
  if (kind === 'date') return formatDate(value, lang);
  if (kind === 'filesize') return formatFileSize(value, lang);
  return new Intl.NumberFormat(lang).format(value);
}
