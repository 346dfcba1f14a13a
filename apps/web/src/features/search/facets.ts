import { valueFormatOf, type ValueFormat } from '@vitrine/contract/field-format';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { facetSortEntry } from '@vitrine/contract/endpoints';
import type { FacetOrder, IndexField } from '@vitrine/contract/search';
import type { RangeKind } from './searchState.ts';
import type { TFunction } from '../../lib/translate.tsx';

export type FacetKind = 'checkbox' | 'radio' | 'slider';

/** A facet as the sidebar shows it (portal-spec §3 "Facet config"). */
export interface FacetDef {
  field: string;
  translation?: string;
  /** Per language: its name as an admin wrote it in the search settings. */
  labels?: Record<string, string>;
  kind: FacetKind;
  /** How its values read (its filterVal, else the index field's): dates, sizes, or as they are. */
  format: ValueFormat;
  range: RangeKind;
  preview: number;
  /** The order of its values the search settings give it; without it the index field's. */
  order?: FacetOrder;
}

/** Facet value default preview (portal-spec §9). */
const DEFAULT_PREVIEW = 10;

/** A range facet's slider: whole days for dates and times, 10 bytes for sizes, else 1 (searchState.ts). */
const rangeKindOf = (format: ValueFormat): RangeKind =>
  format === 'date' || format === 'datetime' ? 'date' : format === 'filesize' ? 'filesize' : 'other';

/**
 * The sidebar's facets: the configured ones in position order, without those the index no longer
 * has (the search would be refused for them, portal-spec §4 "Search"); with none configured, every
 * facet field of the index (range facets as sliders), so a fresh portal can be filtered at all.
 */
export function facetDefs(config: GlobalConfig, fields: readonly IndexField[]): FacetDef[] {
  const byName = new Map(fields.map((f) => [f.field_name, f]));
  if (config.facets.length > 0) {
    return [...config.facets]
      .filter((f) => fields.length === 0 || byName.has(f.field_name))
      .sort((a, b) => a.position - b.position)
      .map((f) => {
        const index = byName.get(f.field_name);
        const range = f.range_facet || index?.range_facet === true;
        // The facet's filterVal, else the index field's.
        const format = valueFormatOf(index ?? f, f.options.filterVal ?? index?.options.filterVal);
        return {
          field: f.field_name,
          translation: f.translation,
          labels: f.labels,
          kind: range ? 'slider' : f.options.multivalue === 'slider' ? 'checkbox' : f.options.multivalue,
          format,
          range: rangeKindOf(format),
          preview: f.options.preview,
          order: { sort: f.options.sort, orientation: f.options.sort_orientation },
        };
      });
  }
  return fields
    .filter((f) => f.is_facet)
    .map((f) => {
      const format = valueFormatOf(f);
      return {
        field: f.field_name,
        kind: f.range_facet ? 'slider' : (f.options.multivalue ?? 'checkbox') === 'radio' ? 'radio' : 'checkbox',
        format,
        range: rangeKindOf(format),
        preview: f.options.preview ?? DEFAULT_PREVIEW,
      };
    });
}

/**
 * A facet's name as an admin wrote it: in the visitor's language, else in the fallback language
 * (an empty one is none); undefined when neither is written.
 */
export function facetOwnLabel(def: FacetDef, language: string, fallbackLang: string): string | undefined {
  return [language, fallbackLang].map((l) => def.labels?.[l]?.trim()).find((label) => !!label);
}

/** A value as a formatter reads it (a date or a size arrives as the digits of a number). */
export type ValueText = (value: unknown, format: ValueFormat) => string;

/**
 * What a facet value reads as (portal-spec §3 "Facet config"): a colour code's name, else the label
 * the index gives, else the value by the facet's format (a date facet's days as dates, a size
 * facet's as sizes, in the visitor's language), else the value as it is.
 */
export function facetValueLabel(
  t: TFunction,
  field: string,
  value: string,
  label?: string,
  formatted?: { format: ValueFormat; text: ValueText },
): string {
  if (field === 'color_code') return t(`views.search.colors.${value}`, { defaultValue: label ?? value });
  if (label !== undefined) return label;
  if (!formatted || formatted.format === 'none') return value;
  const number = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return formatted.text(number, formatted.format) || value;
}

/** What a search asks about its facets: their fields, and their values' order (`facet_sort` entries). */
export function facetRequestOf(defs: readonly FacetDef[]): { facetFields: string[]; facetSort: string[] } {
  return {
    facetFields: defs.map((d) => d.field),
    facetSort: defs.flatMap((d) => (d.order ? [facetSortEntry(d.field, d.order)] : [])),
  };
}
