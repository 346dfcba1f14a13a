import { Box, Chip, Menu, MenuItem } from '@mui/material';
import { memo, useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { sortLabel } from './sortLabel.ts';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { PlainIcon } from '../../components/icons.tsx';
import { IconTooltip } from '../../components/IconTooltip.tsx';
import { sortPath, viewAgendaPath, viewListPath, viewModulePath } from '../../components/iconPaths.ts';
import { TextButton } from '../../components/TextButton.tsx';
import { BookmarkManyButton } from '../../widgets/BookmarkManyButton.tsx';
import { SelectionEditorActions } from '../../widgets/edit/EditorControls.tsx';
import { VISUALLY_HIDDEN } from '../../components/visuallyHidden.ts';
import { truncateTag } from '../../stores/searchInput.ts';
import type { SortState, ViewKey } from './searchState.ts';

const viewIcons: Record<ViewKey, string> = { grid: viewAgendaPath, thumbnail: viewModulePath, list: viewListPath };

/** The sort menu: choosing the active key toggles asc/desc, another key uses it (portal-spec §4). */
export function SortMenu({
  sorting,
  sort,
  onChoose,
}: {
  sorting: GlobalConfig['sorting'];
  sort: SortState;
  onChoose: (key: string) => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const options = sorting.options.filter((o) => o.active);
  const current = options.find((o) => o.key === sort.key);
  const currentLabel = current ? t(current.translation) : sort.key;
  return (
    <>
      <TextButton
        data-tour="sort"
        icon={sortPath}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {sortLabel(t, currentLabel, sort.orientation)}
      </TextButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {options.map((o) => (
          <MenuItem
            key={o.key}
            selected={o.key === sort.key}
            onClick={() => {
              setAnchor(null);
              onChoose(o.key);
            }}
          >
            {o.key === sort.key
              ? `${t(o.translation)} (${t(`views.search.sort.${sort.orientation === 'asc' ? 'desc' : 'asc'}`)})`
              : t(o.translation)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

export function ViewSwitch({
  views,
  view,
  onChange,
}: {
  views: GlobalConfig['search']['views']['options'];
  view: ViewKey;
  onChange: (view: ViewKey) => void;
}) {
  const { t } = useTranslation();
  const visible = views.filter((v) => v.visible).sort((a, b) => a.position - b.position);
  if (visible.length < 2) return null;
  return (
    <div role="group" className="vt-toggles" data-tour="views" aria-label={t('views.search.view')}>
      {visible.map((v) => (
        <IconTooltip key={v.key} title={t(v.translation)}>
          <button
            type="button"
            aria-pressed={v.key === view}
            aria-label={t(v.translation)}
            onClick={() => v.key !== view && onChange(v.key)}
          >
            <PlainIcon path={viewIcons[v.key]} size={24} />
          </button>
        </IconTooltip>
      ))}
    </div>
  );
}

export interface Tag {
  key: string;
  label: string;
  value: string;
  onDelete: () => void;
}

/** Filter tags (portal-spec §2 "Search"): values cut at 50 characters with an ellipsis. */
export function FilterTags({ tags }: { tags: Tag[] }) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {tags.map((tag) => {
        const text = `${tag.label}: ${truncateTag(tag.value)}`;
        return (
          <Chip
            key={tag.key}
            label={text}
            title={tag.value}
            onDelete={tag.onDelete}
            aria-label={t('views.search.remove_tag', { label: text })}
          />
        );
      })}
    </Box>
  );
}

/**
 * The bar above the results (portal-spec §2 "Search"): the results heading, the selection count,
 * bookmarking, sharing and downloading the found or selected assets, sort, views and reset. Memoised:
 * loading further pages of results does not draw it again.
 */
export const ResultsBar = memo(function ResultsBar({
  heading,
  selected,
  total,
  fetchIds,
  onShare,
  onDownload,
  onBinned,
  sorting,
  sort,
  onChooseSort,
  views,
  view,
  onView,
  onReset,
}: {
  heading: string;
  /** The selected assets' ids (kept by the page, the same array until the selection changes). */
  selected: string[];
  total: number;
  fetchIds: () => Promise<string[]>;
  onShare: () => void;
  onDownload: () => void;
  /** The selected assets went to the bin (an editor's action). */
  onBinned: () => void;
  sorting: GlobalConfig['sorting'];
  sort: SortState;
  onChooseSort: (key: string) => void;
  views: GlobalConfig['search']['views']['options'];
  view: ViewKey;
  onView: (view: ViewKey) => void;
  /** Shown as the reset button when the route has a query. */
  onReset?: () => void;
}) {
  const { t } = useTranslation();
  const selectedCount = selected.length;
  const some = selectedCount > 0;
  // Plain elements with static rules (app/controls.css): the page's first paint draws the same.
  return (
    <div className="vt-results-bar">
      <h2 className="vt-heading-6" data-tour="result" aria-live="polite">
        {heading}
      </h2>
      {/* Always there, so the first change of the selection (a click or a long press) is announced too. */}
      <p role="status" className={some ? 'vt-selected-count' : VISUALLY_HIDDEN}>
        {some ? t('views.search.selected', { count: selectedCount }) : ''}
      </p>
      <BookmarkManyButton count={some ? selectedCount : total} fetchIds={fetchIds}>
        {t(some ? 'views.search.bookmark_selection' : 'views.search.bookmark_found')}
      </BookmarkManyButton>
      <TextButton small onClick={onShare} disabled={total === 0}>
        {t(some ? 'views.search.share_selection' : 'views.search.share_found')}
      </TextButton>
      <TextButton small disabled={!some} onClick={onDownload}>
        {t('views.search.download_selection')}
      </TextButton>
      <SelectionEditorActions ids={selected} onBinned={onBinned} />
      <SortMenu sorting={sorting} sort={sort} onChoose={onChooseSort} />
      <ViewSwitch views={views} view={view} onChange={onView} />
      {onReset && (
        <TextButton small outlined onClick={onReset}>
          {t('views.search.reset')}
        </TextButton>
      )}
    </div>
  );
});
