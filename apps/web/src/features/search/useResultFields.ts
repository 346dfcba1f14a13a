import { useMemo } from 'react';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { AssetDoc } from '@vitrine/contract/search';
import type { IndexField } from '@vitrine/contract/search';
import type { FieldRef } from '../../lib/fieldText.ts';
import { useFieldFormatter } from '../../stores/fieldText.ts';
import type { InfoField } from './infoFields.ts';
import type { ListColumn } from './ListTable.tsx';

/** Fields the info panel shows when the config names none. */
const defaultInfoFields = [
  'title',
  'description',
  'creator',
  'category',
  'keywords',
  'format',
  'file_size',
  'imp_date',
];
/** Columns of the list table after the title and the picture when the config names none (those in the index). */
const defaultListColumns = ['format', 'file_size', 'imp_date'];

export interface ResultFields {
  /** An asset's title, from the info view's title field (portal-spec §4 "Info view"). */
  titleOf: (doc: AssetDoc) => string;
  /** A thumbnail's caption: the field the search settings name as its header (admin-spec §1 "search"), or the title. */
  captionOf: (doc: AssetDoc) => string;
  /**
   * A thumbnail's body under its caption: a line per field the search settings name as its body
   * (admin-spec §3 "Config" search), '' where the asset has no value; the same list for the same doc.
   */
  bodyOf: (doc: AssetDoc) => readonly string[];
  /** A field's value as the visitor reads it. */
  format: (doc: AssetDoc, field: string) => string;
  /** The info panel's two columns. */
  left: InfoField[];
  right: InfoField[];
  /** The list view's columns, sortable where a sort option of that key is active. */
  listColumns: ListColumn[];
}

/**
 * What the results show of an asset (portal-spec §4 "Info view", §2 "Search" list view): the
 * configured fields, labelled in the visitor's language, or defaults when the config names none.
 */
export function useResultFields(config: GlobalConfig, fields: readonly IndexField[]): ResultFields {
  const formatter = useFieldFormatter(fields);
  const { infoView, sorting, search } = config;
  return useMemo(() => {
    const titleField = infoView.title || 'title';
    const asInfoFields = (list: readonly FieldRef[]): InfoField[] =>
      list.map((f) => ({ field: f.field_name, label: formatter.label(f) }));
    const configuredLeft = asInfoFields(infoView.paramsLeft);
    const configuredRight = asInfoFields(infoView.paramsRight);
    const fallback = asInfoFields(
      defaultInfoFields.filter((f) => f !== titleField).map((field_name) => ({ field_name })),
    );
    const [left, right] =
      configuredLeft.length + configuredRight.length > 0
        ? [configuredLeft, configuredRight]
        : [fallback.slice(0, 4), fallback.slice(4)];
    const bodyFields = search.thumbnails.body.map((f) => f.field_name);
    // Kept per doc so that a thumbnail drawn again with the same doc gets the same lines (ResultItem is memoised).
    const bodies = new WeakMap<AssetDoc, readonly string[]>();
    const sortKeys = new Set(sorting.options.filter((o) => o.active).map((o) => o.key));
    const listColumns: ListColumn[] = asInfoFields(
      search.list.columns.length > 0
        ? search.list.columns
        : [titleField, ...defaultListColumns]
            .filter((f) => fields.length === 0 || fields.some((x) => x.field_name === f))
            .map((field_name) => ({ field_name })),
    ).map((c) => (sortKeys.has(c.field) ? { ...c, sortKey: c.field } : c));
    return {
      titleOf: (doc) => formatter.title(doc, titleField),
      captionOf: (doc) => formatter.title(doc, search.thumbnails.header || titleField),
      bodyOf: (doc) => {
        let body = bodies.get(doc);
        if (!body) bodies.set(doc, (body = bodyFields.map((f) => formatter.text(doc, f))));
        return body;
      },
      format: formatter.text,
      left,
      right,
      listColumns,
    };
  }, [formatter, infoView, sorting, search.list.columns, search.thumbnails.header, search.thumbnails.body, fields]);
}
