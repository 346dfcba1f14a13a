import { logoVisible, pickContentLanguage } from '@vitrine/contract/config-defaults';
import type { AssetDoc } from '@vitrine/contract/search';
import { filterPath, sortPath, viewAgendaPath, viewListPath, viewModulePath } from '../components/iconPaths.ts';
import { altText } from '../lib/assetText.ts';
import { assetTitle, fieldText } from '../lib/fieldText.ts';
import type { SearchAnswer } from './earlyAnswers.ts';
import { configImageUrl, thumbPicture } from '../lib/pictures.ts';
import { captionHeight, rowGap, viewRows } from '../features/search/layout.ts';
import type { FirstSearch } from '../features/search/request.ts';
import { resultsHeight, viewSizesOf } from '../features/search/resultsBox.ts';
import { colourOf, similarOf } from '../features/search/colour.ts';
import { hasQuery, type ViewKey } from '../features/search/searchState.ts';
import { sortLabel } from '../features/search/sortLabel.ts';
import { buttonMarkup, esc, iconMarkup, type PaintContext } from './context.ts';

const viewIcons: Record<ViewKey, string> = { grid: viewAgendaPath, thumbnail: viewModulePath, list: viewListPath };

/**
 * Whether the first paint can draw this search as the page will: on a small screen (the facets in a
 * drawer), with posters or thumbnails (not the list's table), and without tags or suggestions, whose
 * labels come from answers the page asks for later. A chosen colour and a search of look-alikes are
 * tags too (their terms are not shown in the input nor quoted in the heading).
 */
export function paintsSearch(first: FirstSearch, ctx: PaintContext): boolean {
  const { route } = first;
  const names = new Set((ctx.boot.fields ?? []).map((f) => f.field_name));
  const tags =
    route.filters.some((f) => !names.has(f.key)) ||
    route.collection !== undefined ||
    route.ids.length > 0 ||
    colourOf(route.text) !== undefined ||
    similarOf(route.text) !== undefined;
  return first.small && first.view !== 'list' && !tags && route.suggestions.length === 0;
}

/**
 * The search page of a small screen above its results as static markup (features/search/SearchPage.tsx,
 * SearchToolbar.tsx ResultsBar, FilterDrawer.tsx), drawn by the page's own rules (searchPage.css,
 * app/controls.css) and, for the search input, a place of its size (app/firstPaint.css): the input,
 * the results heading, the bar's buttons (bookmark, share and download the found assets, sort, views,
 * reset), the filter drawer's button, and the results area, empty: `resultRowsMarkup` fills it once
 * its width is known.
 */
export function searchContent(first: FirstSearch, answer: SearchAnswer, ctx: PaintContext): string {
  const { t, boot } = ctx;
  const { config, files } = boot;
  const { route, sort, view } = first;
  const total = answer.response.numFound;
  const heading = route.text
    ? `${t('views.search.results.query', { count: total })} ${t('views.search.results.quoted', { text: route.text })}`
    : t('views.search.results.all', { count: total });
  const current = config.sorting.options.filter((o) => o.active).find((o) => o.key === sort.key);
  const sorted = sortLabel(t, current ? t(current.translation) : sort.key, sort.orientation);
  const views = config.search.views.options.filter((v) => v.visible).sort((a, b) => a.position - b.position);
  // As the search page places it (its logo before the input, or after it when aligned right).
  const logoAlign = config.search.logo.alignment;
  const logo =
    files.searchLogo && logoVisible(config, 'search')
      ? `<div class="vt-search-logo-box"><img class="vt-search-logo" src="${esc(configImageUrl('searchLogo'))}" alt=""></div>`
      : '';
  const input = route.text || t('views.search.input.label');
  return [
    '<div class="vt-search">',
    `<div class="vt-search-head" data-logo-align="${logoAlign}">${logoAlign === 'right' ? '' : logo}<div class="vt-fp-input"${route.text ? '' : ' data-empty=""'}><span>${esc(input)}</span></div>${logoAlign === 'right' ? logo : ''}</div>`,
    '<div class="vt-results-bar">',
    `<h2 class="vt-heading-6">${esc(heading)}</h2>`,
    buttonMarkup(t('views.search.bookmark_found'), { disabled: total === 0 }),
    buttonMarkup(t('views.search.share_found'), { small: true, disabled: total === 0 }),
    buttonMarkup(t('views.search.download_selection'), { small: true, disabled: true }),
    buttonMarkup(sorted, { icon: sortPath }),
    views.length < 2
      ? ''
      : `<span class="vt-toggles">${views.map((v) => `<span${v.key === view ? ' data-pressed=""' : ''}>${iconMarkup(viewIcons[v.key], 24)}</span>`).join('')}</span>`,
    hasQuery(route) ? buttonMarkup(t('views.search.reset'), { small: true, outlined: true }) : '',
    '</div>',
    '<div class="vt-search-row"><div class="vt-results-column">',
    buttonMarkup(t('views.search.show_facets'), { icon: filterPath, className: 'vt-results-filters' }),
    `<div class="vt-results" data-view="${view}" style="height:${resultsHeight(window.innerHeight)}px"></div>`,
    '</div></div>',
    '</div>',
  ].join('');
}

/**
 * The rows of results that a results area of this size shows at first, as ResultList and ResultItem
 * draw them (results.css): each item at its box, its picture's widths and sizes as the app gives
 * them, the first row's fetched first. Posters have no captions; thumbnails have their header and
 * body fields.
 */
export function resultRowsMarkup(
  first: FirstSearch,
  docs: readonly AssetDoc[],
  box: { width: number; height: number },
  ctx: PaintContext,
): string {
  const { config } = ctx.boot;
  const sizes = viewSizesOf(config.search);
  const gap = rowGap(first.view);
  const contentLang = pickContentLanguage(ctx.lang, config.content_languages);
  // The thumbnail view's caption field (its header), as the results name it.
  const captionField = config.search.thumbnails.header || config.infoView.title || 'title';
  const bodyFields = config.search.thumbnails.body.map((f) => f.field_name);
  const out: string[] = [];
  let top = 0;
  for (const [index, row] of viewRows(first.view, docs, box.width, sizes).entries()) {
    if (top >= box.height) break;
    const items = docs.slice(row.start, row.start + row.widths.length).map((doc, i) => {
      const thumbnail = first.view === 'thumbnail';
      const width = thumbnail ? sizes.thumbWidth : (row.widths[i] ?? 0);
      const height = thumbnail ? sizes.thumbHeight : row.height;
      const caption = thumbnail ? assetTitle(doc, captionField, ctx.fields) : undefined;
      const picture = doc.url
        ? thumbPicture(doc.url, { sizes: `${width}px`, asset: doc, first: index === 0 })
        : undefined;
      const img = picture
        ? `<img src="${esc(picture.src)}" srcset="${esc(picture.srcSet)}" sizes="${esc(picture.sizes)}"${picture.fetchPriority ? ' fetchpriority="high"' : ''} decoding="async" alt="${esc(altText(doc, config.accessibility.assets, contentLang, config.fallback_locale))}" width="${width}" height="${height}">`
        : '';
      const whole = height + (caption === undefined ? 0 : captionHeight(bodyFields.length));
      const text =
        caption === undefined
          ? ''
          : `<span class="vt-caption">${esc(caption)}</span>${bodyFields.map((f) => `<span class="vt-caption-line">${esc(fieldText(doc, f, ctx.fields))}</span>`).join('')}`;
      return `<div class="vt-item" style="width:${width}px;contain-intrinsic-size:auto ${width}px ${whole}px"><div class="vt-item-button" style="width:${width}px"><div class="vt-image" style="width:${width}px;height:${height}px">${img}</div>${text}</div></div>`;
    });
    out.push(`<div class="vt-row" style="gap:${gap}px;padding-bottom:${gap}px">${items.join('')}</div>`);
    top += row.height + gap;
  }
  return out.join('');
}
