import { Menu, MenuItem } from '@mui/material';
import { memo, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { Link as RouterLink } from '../../lib/router.tsx';
import { thumbHashToDataURL } from 'thumbhash';
import type { AssetDoc } from '@vitrine/contract/search';
import { routeHref } from '@vitrine/contract/paths';
import {
  BookmarkBorderIcon,
  BookmarkIcon,
  DownloadIcon,
  MoreVertIcon,
  OpenInNewIcon,
  PlainIcon,
  ShareIcon,
} from '../../components/icons.tsx';
import { useLongPress } from '../../lib/longPress.ts';
import { thumbPicture } from '../../lib/pictures.ts';
import type { ClickModifiers } from '../../lib/selection.ts';
import { captionHeight } from './layout.ts';
import { posterIconSlots } from './searchState.ts';
import './results.css';

/**
 * One observer for every result picture: thousands of items scrolled past would otherwise each
 * hold an IntersectionObserver of their own.
 */
const seenCallbacks = new WeakMap<Element, () => void>();
let sharedObserver: IntersectionObserver | undefined;
function observeOnce(el: Element, onSeen: () => void): () => void {
  sharedObserver ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      seenCallbacks.get(e.target)?.();
      seenCallbacks.delete(e.target);
      sharedObserver?.unobserve(e.target);
    }
  });
  seenCallbacks.set(el, onSeen);
  sharedObserver.observe(el);
  return () => {
    seenCallbacks.delete(el);
    sharedObserver?.unobserve(el);
  };
}

/**
 * Gives the picture its address the first time it comes into view (portal-spec §2: skeleton until
 * then, once). Done on the element itself, not through React state: a screenful of posters coming
 * into view at once would otherwise draw them all again in one long task.
 */
function useRevealOnce<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const reveal = () => {
      const img = el.querySelector<HTMLImageElement>('img[data-src]');
      // The widths first: with src set first, the browser would start fetching that one.
      if (img?.dataset.srcset) img.srcset = img.dataset.srcset;
      if (img?.dataset.src) img.src = img.dataset.src;
      el.dataset.seen = '';
    };
    if (typeof IntersectionObserver === 'undefined') {
      reveal();
      return;
    }
    return observeOnce(el, reveal);
  }, []);
  return ref;
}

/** What an item's icon set does; one object for all items, so items can skip re-rendering. */
export interface ItemActions {
  share: (doc: AssetDoc) => void;
  toggleBookmark: (id: string) => void;
  /** Opens the download flow (conversion sets) for the asset. */
  download: (doc: AssetDoc) => void;
}

interface Action {
  key: string;
  label: string;
  path: string;
  disabled?: boolean;
  pressed?: boolean;
  href?: string;
  run?: () => void;
}

/**
 * The poster icon set (portal-spec §2 "Poster, thumbnail and list rows"): shown when the width minus
 * 19.2 is at least 40; each slot 40 px; what does not fit goes into a 'more' menu. The bookmark
 * toggle's label switches to remove when the asset is bookmarked (§4 "Bookmark toggle"); download opens
 * the download flow with the asset's conversion sets. Plain elements with static CSS
 * and the label as a CSS tooltip: posters are drawn by the thousand while scrolling.
 */
export function IconSet({
  doc,
  width,
  actions,
  bookmarked,
  bookmarksLoading,
}: {
  doc: AssetDoc;
  width: number;
  actions: ItemActions;
  bookmarked: boolean;
  bookmarksLoading: boolean;
}) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const slots = posterIconSlots(width);
  if (slots === 0) return null;
  const all: Action[] = [
    {
      key: 'open',
      label: t('views.search.actions.open'),
      path: OpenInNewIcon.path,
      href: routeHref({ page: 'asset', id: doc.id }),
    },
    { key: 'share', label: t('views.search.actions.share'), path: ShareIcon.path, run: () => actions.share(doc) },
    {
      key: 'bookmark',
      label: t(bookmarked ? 'views.bookmark.remove' : 'views.bookmark.add'),
      path: bookmarked ? BookmarkIcon.path : BookmarkBorderIcon.path,
      pressed: bookmarked,
      disabled: bookmarksLoading,
      run: () => actions.toggleBookmark(doc.id),
    },
    {
      key: 'download',
      label: t('views.search.actions.download'),
      path: DownloadIcon.path,
      run: () => actions.download(doc),
    },
  ];
  const inline = slots >= all.length ? all : all.slice(0, slots - 1);
  const overflow = all.slice(inline.length);
  return (
    <div className="vt-iconset" data-tour="icon_set" onClick={(e) => e.stopPropagation()}>
      {inline.map((a) =>
        a.href ? (
          <a key={a.key} className="vt-icon" href={a.href} aria-label={a.label} data-tip={a.label}>
            <PlainIcon path={a.path} />
          </a>
        ) : (
          <button
            key={a.key}
            type="button"
            className="vt-icon"
            aria-label={a.label}
            aria-pressed={a.pressed}
            data-tip={a.label}
            disabled={a.disabled}
            onClick={a.run}
          >
            <PlainIcon path={a.path} />
          </button>
        ),
      )}
      {overflow.length > 0 && (
        <>
          <button
            type="button"
            className="vt-icon"
            aria-label={t('views.search.actions.more')}
            data-tip={t('views.search.actions.more')}
            aria-haspopup="menu"
            onClick={(e) => setMenu(e.currentTarget)}
          >
            <PlainIcon path={MoreVertIcon.path} />
          </button>
          {menu && (
            <Menu anchorEl={menu} open onClose={() => setMenu(null)}>
              {overflow.map((a) =>
                a.href ? (
                  <MenuItem key={a.key} component={RouterLink} to={a.href.slice(1)}>
                    {a.label}
                  </MenuItem>
                ) : (
                  <MenuItem
                    key={a.key}
                    disabled={a.disabled}
                    aria-checked={a.pressed}
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
          )}
        </>
      )}
    </div>
  );
}

/** Decoded placeholders by hash: an item scrolled past and back does not decode again. */
const placeholders = new Map<string, string>();
const PLACEHOLDER_CACHE = 5000;

/** The ThumbHash (base64) as an image URL; undefined when it cannot be decoded. */
export function placeholderUrl(hash: string | undefined): string | undefined {
  if (!hash) return undefined;
  let url = placeholders.get(hash);
  if (url === undefined) {
    try {
      url = thumbHashToDataURL(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
    } catch {
      // A malformed hash leaves the plain skeleton colour.
      url = '';
    }
    if (placeholders.size >= PLACEHOLDER_CACHE) placeholders.clear();
    placeholders.set(hash, url);
  }
  return url || undefined;
}

/** Placeholders still to decode, with the element each one is drawn on. */
const toDecode: { el: HTMLElement; hash: string }[] = [];
/** A slice of decoding stays well below a long task (50 ms), also on a slow phone. */
const DECODE_SLICE_MS = 8;

function decodeSome(): void {
  const until = performance.now() + DECODE_SLICE_MS;
  while (toDecode.length > 0 && performance.now() < until) {
    const { el, hash } = toDecode.shift()!;
    if (!el.isConnected) continue;
    const url = placeholderUrl(hash);
    if (url) el.style.backgroundImage = `url(${url})`;
    else el.dataset.placeholder = 'skeleton';
  }
  if (toDecode.length > 0) setTimeout(decodeSome, 0);
}

/**
 * Draws the placeholder on the element once decoded: a screenful of results decoded during their
 * render would lengthen the task that commits them, so they are decoded after it, a few at a time.
 */
function useDecodedPlaceholder(ref: RefObject<HTMLElement | null>, hash: string | undefined, decoded: boolean): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || !hash || decoded) return;
    toDecode.push({ el, hash });
    if (toDecode.length === 1) setTimeout(decodeSome, 0);
  }, [ref, hash, decoded]);
}

/**
 * The picture of an asset: its ThumbHash placeholder (or a plain skeleton without one) until it has
 * been in view once, then the thumbnail, in the width it is drawn at, over the placeholder while it
 * loads. A `first` one (the first row of results) is fetched at once and before the others.
 */
export function AssetImage({
  doc,
  alt,
  width,
  height,
  first = false,
}: {
  doc: AssetDoc;
  alt: string;
  width: number;
  height: number;
  first?: boolean;
}) {
  const ref = useRevealOnce<HTMLDivElement>();
  // Decoded at render only when decoded before (an item scrolled past and back), else just after.
  const placeholder = doc.thumbhash ? placeholders.get(doc.thumbhash) : undefined;
  useDecodedPlaceholder(ref, doc.thumbhash, placeholder !== undefined);
  const picture = doc.url ? thumbPicture(doc.url, { sizes: `${width}px`, asset: doc, first }) : undefined;
  return (
    <div
      ref={ref}
      className="vt-image"
      data-placeholder={doc.thumbhash && placeholder !== '' ? 'thumbhash' : 'skeleton'}
      style={{ width, height, backgroundImage: placeholder ? `url(${placeholder})` : undefined }}
    >
      {picture &&
        (first ? (
          <img {...picture} alt={alt} width={width} height={height} />
        ) : (
          <img
            data-src={picture.src}
            data-srcset={picture.srcSet}
            sizes={picture.sizes}
            alt={alt}
            width={width}
            height={height}
            decoding={picture.decoding}
          />
        ))}
    </div>
  );
}

const noLines: readonly string[] = [];
/** The icon set's distance from the picture's bottom edge (results.css `.vt-iconset-place`). */
const ICONSET_INSET = 4;

export interface ResultItemProps {
  doc: AssetDoc;
  title: string;
  alt: string;
  width: number;
  height: number;
  selected: boolean;
  active: boolean;
  bookmarked: boolean;
  bookmarksLoading: boolean;
  /** A click, or a long press as ctrl-click (the touch way to add to or take from the selection). */
  onClick: (doc: AssetDoc, click: ClickModifiers) => void;
  actions: ItemActions;
  caption?: string;
  /** The lines under the caption (the thumbnail view's body fields). */
  body?: readonly string[];
  panelId: string;
  /** In the first row of results: its picture is fetched at once and first. */
  first?: boolean;
}

/**
 * One result: a button that selects it (click, ctrl/meta click, shift click, long press) and makes it
 * active, the picture, and the icon set. Memoised: scrolling re-renders only the items that come into view.
 */
export const ResultItem = memo(function ResultItem({
  doc,
  title,
  alt,
  width,
  height,
  selected,
  active,
  bookmarked,
  bookmarksLoading,
  onClick,
  actions,
  caption,
  body = noLines,
  panelId,
  first,
}: ResultItemProps) {
  const below = caption === undefined ? 0 : captionHeight(body.length);
  const longPress = useLongPress(() => onClick(doc, { ctrlKey: true, metaKey: false, shiftKey: false }));
  return (
    <div
      className="vt-item"
      data-asset-id={doc.id}
      data-selected={selected || undefined}
      // Until the browser has decided an item is on screen, content-visibility lays it out at this
      // size (else at none): the result list measures its rows as they are drawn.
      style={{
        width,
        containIntrinsicSize: `auto ${width}px ${height + below}px`,
      }}
    >
      <button
        type="button"
        className="vt-item-button"
        aria-pressed={selected}
        aria-expanded={active}
        aria-controls={active ? panelId : undefined}
        aria-label={title}
        onClick={(e) => onClick(doc, e)}
        {...longPress}
        data-result-button
        style={{ width }}
      >
        <AssetImage doc={doc} alt={alt} width={width} height={height} first={first} />
        {caption !== undefined && <span className="vt-caption">{caption}</span>}
        {caption !== undefined &&
          body.map((line, i) => (
            <span key={i} className="vt-caption-line">
              {line}
            </span>
          ))}
      </button>
      <div className="vt-iconset-place" style={caption === undefined ? undefined : { bottom: below + ICONSET_INSET }}>
        <IconSet
          doc={doc}
          width={width}
          actions={actions}
          bookmarked={bookmarked}
          bookmarksLoading={bookmarksLoading}
        />
      </div>
    </div>
  );
});
