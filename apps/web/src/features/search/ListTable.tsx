import type { MouseEvent, ReactNode } from 'react';
import type { AssetDoc } from '@vitrine/contract/search';
import { useTranslation } from '../../lib/translate.tsx';
import type { InfoField } from './infoFields.ts';
import type { SortState } from './searchState.ts';

/** A column of the list table: a field, its label, and the sort key it sorts by when sortable. */
export interface ListColumn extends InfoField {
  sortKey?: string;
}

/** The header row's height; the results scroll under it. */
export const LIST_HEADER_HEIGHT = 48;
/** Text columns are at least this wide, and this far apart (results.css .vt-list-grid). */
const MIN_TEXT_COLUMN = 112;
const COLUMN_GAP = 16;
/** The picture narrows down to this to leave the text columns room; below it the table scrolls sideways. */
const MIN_IMAGE_WIDTH = 96;

/**
 * The table's layout in the results' width: the picture at the configured width (imageColWidth) where
 * the text columns still fit beside it, narrower where they do not; the text columns share the rest.
 */
export function listLayout(columns: number, configuredImageWidth: number, width: number) {
  const textWidth = columns * (MIN_TEXT_COLUMN + COLUMN_GAP);
  const imageWidth = Math.max(
    Math.min(MIN_IMAGE_WIDTH, configuredImageWidth),
    Math.min(configuredImageWidth, width - textWidth),
  );
  return {
    imageWidth,
    tableWidth: Math.max(width, imageWidth + textWidth),
    template: `${imageWidth}px${columns > 0 ? ` repeat(${columns}, minmax(${MIN_TEXT_COLUMN}px, 1fr))` : ''}`,
  };
}

/**
 * The table's header row (portal-spec §2 "Search", list table): the picture column, then a header
 * per configured column with the field's label. A sortable one is a button that sorts by its key,
 * or toggles asc/desc when it is the active one, as the sort menu does; the active one has aria-sort.
 */
export function ListHeader({
  columns,
  template,
  sort,
  onSort,
}: {
  columns: ListColumn[];
  template: string;
  sort: SortState;
  onSort: (key: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="rowgroup" className="vt-list-head" style={{ height: LIST_HEADER_HEIGHT }}>
      <div role="row" aria-rowindex={1} className="vt-list-grid" style={{ gridTemplateColumns: template }}>
        <div role="columnheader" className="vt-list-header">
          {t('views.search.list.picture')}
        </div>
        {columns.map((c) => {
          const active = c.sortKey !== undefined && c.sortKey === sort.key;
          return (
            <div
              key={c.field}
              role="columnheader"
              className="vt-list-header"
              aria-sort={active ? (sort.orientation === 'asc' ? 'ascending' : 'descending') : undefined}
            >
              {c.sortKey === undefined ? (
                c.label
              ) : (
                <button type="button" className="vt-list-sort" onClick={() => c.sortKey && onSort(c.sortKey)}>
                  {c.label}
                  {active && (
                    <span aria-hidden="true" className="vt-list-sort-mark">
                      {sort.orientation === 'asc' ? '▲' : '▼'}
                    </span>
                  )}
                </button>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * One asset's row: the picture (the result item, which selects it and carries its icon set) and a
 * cell per column, the field as the field formatter shows it. A click elsewhere on the row selects
 * like a click on the picture; keyboard users select with the picture's button.
 */
export function ListRow({
  doc,
  index,
  columns,
  template,
  height,
  selected,
  picture,
  format,
  onClick,
}: {
  doc: AssetDoc;
  index: number;
  columns: ListColumn[];
  template: string;
  height: number;
  selected: boolean;
  picture: ReactNode;
  format: (doc: AssetDoc, field: string) => string;
  onClick: (doc: AssetDoc, click: MouseEvent) => void;
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="vt-list-grid vt-list-row"
      data-selected={selected || undefined}
      style={{ gridTemplateColumns: template, height }}
      onClick={(e) => {
        // The picture's button and the icon set handle their own clicks.
        if ((e.target as HTMLElement).closest('button, a, [role="menu"]')) return;
        onClick(doc, e);
      }}
    >
      <div role="cell" className="vt-list-picture">
        {picture}
      </div>
      {columns.map((c) => (
        <div key={c.field} role="cell" className="vt-list-cell">
          {format(doc, c.field)}
        </div>
      ))}
    </div>
  );
}

/**
 * The active asset's info panel, as a row of one cell across the table; as wide as the results and
 * kept in view when the table is scrolled sideways.
 */
export function ListInfoRow({ columns, width, children }: { columns: number; width: number; children: ReactNode }) {
  return (
    <div role="row">
      <div role="cell" aria-colspan={columns + 1} className="vt-list-info" style={{ width }}>
        {children}
      </div>
    </div>
  );
}
