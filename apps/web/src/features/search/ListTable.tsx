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
/** Text columns are at least this wide; narrower screens scroll the table sideways. */
const MIN_TEXT_COLUMN = 140;

/** The picture column: the configured width, at most a third of the results' width. */
export function listImageWidth(configured: number, width: number): number {
  return Math.max(64, Math.min(configured, Math.floor(width / 3)));
}

/** The width of the table and its grid columns: the picture, then the text columns sharing the rest. */
export function listLayout(columns: number, imageWidth: number, width: number) {
  const tableWidth = Math.max(width, imageWidth + columns * MIN_TEXT_COLUMN);
  return {
    tableWidth,
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

/** The active asset's info panel, as a row of one cell across the table. */
export function ListInfoRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <div role="row" className="vt-list-info">
      <div role="cell" aria-colspan={columns + 1}>
        {children}
      </div>
    </div>
  );
}
