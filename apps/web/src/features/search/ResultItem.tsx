import { Box, ButtonBase, IconButton, Menu, MenuItem, Skeleton, Tooltip, Typography } from '@mui/material';
import { useEffect, useRef, useState, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AssetDoc } from '@vitrine/contract/search';
import { BookmarkIcon, DownloadIcon, MoreVertIcon, OpenInNewIcon, ShareIcon } from '../../components/icons.tsx';
import { posterIconSlots } from './searchState.ts';

/** True from the first time the element came into view (portal-spec §2: skeleton until then, once). */
export function useSeenOnce<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setSeen(true);
        observer.disconnect();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen];
}

export interface ItemActions {
  share: (doc: AssetDoc) => void;
}

interface Action {
  key: string;
  label: string;
  icon: ReactNode;
  disabled?: boolean;
  href?: string;
  run?: () => void;
}

/**
 * The poster icon set (portal-spec §2 "Poster, thumbnail and list rows"): shown when the width minus
 * 19.2 is at least 40; each slot 40 px; what does not fit goes into a 'more' menu. Bookmarking and
 * downloading from here come with the bookmark and download calls; until then they are disabled.
 */
export function IconSet({ doc, width, actions }: { doc: AssetDoc; width: number; actions: ItemActions }) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const slots = posterIconSlots(width);
  if (slots === 0) return null;
  const all: Action[] = [
    { key: 'open', label: t('views.search.actions.open'), icon: <OpenInNewIcon />, href: `/asset/${doc.id}` },
    { key: 'share', label: t('views.search.actions.share'), icon: <ShareIcon />, run: () => actions.share(doc) },
    { key: 'bookmark', label: t('views.search.actions.bookmark'), icon: <BookmarkIcon />, disabled: true },
    { key: 'download', label: t('views.search.actions.download'), icon: <DownloadIcon />, disabled: true },
  ];
  const inline = slots >= all.length ? all : all.slice(0, slots - 1);
  const overflow = all.slice(inline.length);
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <Box
      data-tour="icon_set"
      onClick={stop}
      sx={{ display: 'flex', bgcolor: 'background.paper', opacity: 0.92, borderRadius: 1, width: 'fit-content' }}
    >
      {inline.map((a) => (
        <Tooltip key={a.key} title={a.label} placement="top">
          <span>
            {a.href ? (
              <IconButton size="small" component={RouterLink} to={a.href} aria-label={a.label} sx={{ width: 40 }}>
                {a.icon}
              </IconButton>
            ) : (
              <IconButton size="small" aria-label={a.label} disabled={a.disabled} onClick={a.run} sx={{ width: 40 }}>
                {a.icon}
              </IconButton>
            )}
          </span>
        </Tooltip>
      ))}
      {overflow.length > 0 && (
        <>
          <IconButton
            size="small"
            aria-label={t('views.search.actions.more')}
            aria-haspopup="menu"
            onClick={(e) => setMenu(e.currentTarget)}
            sx={{ width: 40 }}
          >
            <MoreVertIcon />
          </IconButton>
          <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
            {overflow.map((a) =>
              a.href ? (
                <MenuItem key={a.key} component={RouterLink} to={a.href}>
                  {a.label}
                </MenuItem>
              ) : (
                <MenuItem
                  key={a.key}
                  disabled={a.disabled}
                  onClick={() => {
                    setMenu(null);
                    a.run?.();
                  }}
                >
                  {a.label}
                </MenuItem>
              ),
            )}
          </Menu>
        </>
      )}
    </Box>
  );
}

/** The picture of an asset: a skeleton until it has been in view once, then the thumbnail. */
export function AssetImage({ doc, alt, width, height }: { doc: AssetDoc; alt: string; width: number; height: number }) {
  const [ref, seen] = useSeenOnce<HTMLDivElement>();
  return (
    <Box ref={ref} style={{ width, height }} sx={{ overflow: 'hidden', bgcolor: 'action.hover' }}>
      {seen && doc.url ? (
        <Box
          component="img"
          src={doc.url}
          alt={alt}
          loading="lazy"
          decoding="async"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <Skeleton variant="rectangular" width={width} height={height} animation={false} />
      )}
    </Box>
  );
}

/**
 * One result: a button that selects it (click, ctrl/meta click, shift click) and makes it active,
 * the picture, and for posters and thumbnails the icon set.
 */
export function ResultItem({
  doc,
  title,
  alt,
  width,
  height,
  selected,
  active,
  onClick,
  actions,
  caption,
  panelId,
}: {
  doc: AssetDoc;
  title: string;
  alt: string;
  width: number;
  height: number;
  selected: boolean;
  active: boolean;
  onClick: (event: MouseEvent) => void;
  actions: ItemActions;
  caption?: ReactNode;
  panelId: string;
}) {
  return (
    <Box
      data-asset-id={doc.id}
      style={{ width }}
      sx={{
        position: 'relative',
        flex: 'none',
        outline: selected ? 3 : 0,
        outlineColor: 'primary.main',
        outlineStyle: 'solid',
        outlineOffset: -3,
      }}
    >
      <ButtonBase
        focusRipple
        aria-pressed={selected}
        aria-expanded={active}
        aria-controls={active ? panelId : undefined}
        aria-label={title}
        onClick={onClick}
        data-result-button
        style={{ width }}
        sx={{ display: 'block', textAlign: 'left' }}
      >
        <AssetImage doc={doc} alt={alt} width={width} height={height} />
        {caption}
      </ButtonBase>
      <Box sx={{ position: 'absolute', left: 4, bottom: caption ? 36 : 4 }}>
        <IconSet doc={doc} width={width} actions={actions} />
      </Box>
    </Box>
  );
}

export function ItemCaption({ text }: { text: string }) {
  return (
    <Typography variant="body2" noWrap sx={{ px: 1, height: 32, lineHeight: '32px' }}>
      {text}
    </Typography>
  );
}
