import { Box, Button, Chip, Menu, MenuItem, ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { SortIcon, ViewAgendaIcon, ViewListIcon, ViewModuleIcon } from '../../components/icons.tsx';
import { truncateTag } from '../../lib/searchInput.ts';
import type { SortState, ViewKey } from './searchState.ts';

const viewIcons: Record<ViewKey, ReactNode> = {
  grid: <ViewAgendaIcon />,
  thumbnail: <ViewModuleIcon />,
  list: <ViewListIcon />,
};

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
      <Button
        data-tour="sort"
        startIcon={<SortIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {`${t('views.search.sort.label')}: ${currentLabel} (${t(`views.search.sort.${sort.orientation}`)})`}
      </Button>
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
    <ToggleButtonGroup
      data-tour="views"
      size="small"
      exclusive
      value={view}
      aria-label={t('views.search.view')}
      onChange={(_e, next: ViewKey | null) => next && onChange(next)}
    >
      {visible.map((v) => (
        <Tooltip key={v.key} title={t(v.translation)}>
          <ToggleButton value={v.key} aria-label={t(v.translation)}>
            {viewIcons[v.key]}
          </ToggleButton>
        </Tooltip>
      ))}
    </ToggleButtonGroup>
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
