import type { Ref } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { Link as RouterLink } from '../../lib/router.tsx';
import type { AssetDoc } from '@vitrine/contract/search';
import { routePath } from '@vitrine/contract/paths';
import type { CollectionContent } from './queries.ts';
import { LoadingBlock } from '../../components/LoadingBlock.tsx';
import { pixelAspect } from '../../lib/assetText.ts';
import { thumbPicture } from '../../lib/pictures.ts';
import './dashboard.css';

/** The gap between posters (theme spacing 1). */
const GAP = 8;

/** The displayed proportion of an asset, 4:3 when its size is not known. */
function aspect(doc: AssetDoc): number {
  return pixelAspect(doc) ?? 4 / 3;
}

/**
 * One collection as a horizontal row of posters with a 'More results' button (portal-spec §2
 * "Dashboard"); while loading a skeleton holds its place, an empty collection says so. In the `first`
 * row, the posters that start on the screen are fetched at once and first; the others when they
 * near it.
 */
export function CollectionRow({
  id,
  label,
  content,
  loading,
  height,
  borderWidth,
  searchPath,
  alt,
  first = false,
  sectionRef,
  onFocus,
}: {
  id: string;
  label: string;
  content: CollectionContent | undefined;
  loading: boolean;
  height: number;
  borderWidth: number;
  searchPath: string;
  alt: (doc: AssetDoc) => string;
  first?: boolean;
  sectionRef?: Ref<HTMLElement>;
  onFocus?: () => void;
}) {
  const { t } = useTranslation();
  const headingId = `collection-${id}`;
  // Posters with their borders; a loading row's skeleton is as high, so nothing moves when they come.
  const postersHeight = height + 2 * borderWidth;
  const posters: { doc: AssetDoc; width: number; first: boolean }[] = [];
  let left = 0;
  for (const doc of content?.docs ?? []) {
    const width = Math.round(height * aspect(doc));
    posters.push({ doc, width, first: first && left < window.innerWidth });
    left += width + 2 * borderWidth + GAP;
  }
  // Plain elements with static CSS (dashboard.css): a poster's size goes in style, since as sx each
  // size would add a rule of its own.
  return (
    <section
      className="vt-collection"
      ref={sectionRef}
      onFocus={onFocus}
      aria-labelledby={headingId}
      data-tour="collection"
    >
      <div className="vt-collection-head">
        <h2 id={headingId} className="vt-heading-5 vt-collection-title">
          {label}
        </h2>
        {content && content.numFound > 0 && (
          <RouterLink
            className="vt-button vt-button-outlined"
            to={searchPath}
            aria-label={t('views.dashboard.more_results_of', { label })}
          >
            {t('views.dashboard.more_results')}
          </RouterLink>
        )}
      </div>
      {!loading && content?.docs.length === 0 && <p className="vt-collection-empty">{t('views.dashboard.empty')}</p>}
      {(loading || (content && content.docs.length > 0)) && (
        // The list is there while loading too: a keyboard user tabbing down the page reaches a row
        // not loaded yet, which then loads.
        <ul className="vt-posters" tabIndex={0} aria-label={label} aria-busy={loading}>
          {loading && (
            <li className="vt-posters-loading">
              <LoadingBlock height={postersHeight} />
            </li>
          )}
          {posters.map(({ doc, width, first: seenFirst }) => (
            <li className="vt-poster" key={doc.id}>
              <RouterLink
                className="vt-poster-link"
                to={routePath({ page: 'asset', id: doc.id })}
                style={{ borderWidth }}
              >
                {doc.url ? (
                  <img
                    className="vt-poster-image"
                    {...thumbPicture(doc.url, {
                      sizes: `${width}px`,
                      asset: doc,
                      first: seenFirst,
                    })}
                    alt={alt(doc)}
                    width={width}
                    height={height}
                    style={{ width, height }}
                  />
                ) : (
                  <div className="vt-poster-none" role="img" aria-label={alt(doc)} style={{ width, height }} />
                )}
              </RouterLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
