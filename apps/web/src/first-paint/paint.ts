import { FIRST_PAINT_HERO_ID, FIRST_PAINT_ID, FIRST_PAINT_TEMPLATE_ID, type BootData } from '@vitrine/contract/boot';
import { logoVisible } from '@vitrine/contract/config-defaults';
import { landingPage, pageOf, type PortalPage } from '@vitrine/contract/paths';
import type { FirstAnswers } from './earlyAnswers.ts';
import { pickLocale } from '../lib/locale.ts';
import { storedThemeKey } from '../lib/themeChoice.ts';
import { assetContent } from './asset.ts';
import { paintContext, type PaintContext } from './context.ts';
import { paintsSearch, resultRowsMarkup, searchContent } from './search.ts';

/** A first paint in the page: the picture its screen is largest by, and how long the app's code waits for it. */
export interface Painted {
  /** The picture, once it is in the page; undefined when none is drawn. */
  picture: Promise<HTMLImageElement | undefined>;
  /** The longest the app's code waits for the picture to be drawn (ms). */
  wait: number;
}

/** The dashboard's hero is in the page: its picture is the first thing fetched. */
const HERO_WAIT_MS = 800;
/** An asset's preview and a search's first posters come after two calls (the session, then theirs). */
const ANSWERS_WAIT_MS = 1200;

/**
 * The frame of the app's screens from the page's template, shown before the app's root, with the
 * header's logo where the config shows it on this screen (else the website's title, as the shell
 * draws it); its main element.
 */
function showFrame(
  doc: Document,
  template: HTMLTemplateElement,
  page: PortalPage,
  boot: BootData,
): HTMLElement | undefined {
  doc.getElementById('root')?.before(template.content.cloneNode(true));
  const shown = doc.getElementById(FIRST_PAINT_ID);
  shown?.setAttribute('data-page', page);
  const brand = shown?.querySelector<HTMLElement>('.vt-brand');
  if (brand && !logoVisible(boot.config, page)) brand.textContent = brand.dataset.title ?? '';
  return shown?.querySelector<HTMLElement>('main') ?? undefined;
}

/** Draws `content` into the frame's main element while the frame is still shown; its first picture. */
function fill(main: HTMLElement, content: string | undefined): HTMLImageElement | undefined {
  if (!content || !main.isConnected) return undefined;
  main.innerHTML = content;
  return main.querySelector('img') ?? undefined;
}

/**
 * Paints the first screen before the app's code has run (decisions 0242, 0244), from the page's
 * templates (apps/server/src/config/first-paint.ts: the frame of the screens, the dashboard's hero)
 * and the first answers (earlyAnswers.ts), in the language and theme a first visit gets:
 * - the dashboard: its hero, at once;
 * - an asset's page: the frame at once, then the title and the preview picture (asset.ts);
 * - a small screen's search page: the frame at once, then the bar above the results and the first
 *   rows of posters or thumbnails (search.ts).
 * The app draws its own screen behind it and takes its place once that has its content
 * (lib/firstPaint.ts). None for a visitor who chose a theme or another language, whose first screen
 * looks otherwise, for other screens, and where the page has no templates (a portal that asks to log
 * in first).
 */
export function paintFirstScreen(
  doc: Document,
  hash: string,
  boot: BootData | null,
  /** Asks for the first answers (earlyAnswers.ts), once; the dashboard's hero needs none. */
  ask: () => FirstAnswers | undefined,
): Painted | undefined {
  const template = doc.getElementById(FIRST_PAINT_TEMPLATE_ID) as HTMLTemplateElement | null;
  const lang = template?.dataset.locale;
  if (!boot || !template || storedThemeKey() !== null || pickLocale(boot.locales) !== lang) return undefined;
  const shown = pageOf(hash.slice(1) || '/');
  const page = shown && landingPage(shown, boot.config.global);
  const ctx: PaintContext = paintContext(boot, lang);

  if (page === 'dashboard') {
    const hero = doc.getElementById(FIRST_PAINT_HERO_ID) as HTMLTemplateElement | null;
    const main = hero && showFrame(doc, template, page, boot);
    if (!hero || !main) return undefined;
    main.append(hero.content.cloneNode(true));
    return {
      picture: Promise.resolve(main.querySelector<HTMLImageElement>('img.hero-image') ?? undefined),
      wait: HERO_WAIT_MS,
    };
  }

  const answers = ask();
  if (page === 'asset' && answers?.asset) {
    const main = showFrame(doc, template, page, boot);
    if (!main) return undefined;
    const picture = answers.asset.then(([assets, preview]) => {
      const asset = assets?.response.docs[0];
      return fill(main, asset && preview && assetContent(asset, preview, ctx));
    });
    return { picture, wait: ANSWERS_WAIT_MS };
  }

  const search = answers?.search;
  if (page === 'search' && search && paintsSearch(search.first, ctx)) {
    const main = showFrame(doc, template, page, boot);
    if (!main) return undefined;
    const picture = search.answer.then((answer) => {
      if (!answer || !main.isConnected) return undefined;
      main.innerHTML = searchContent(search.first, answer, ctx);
      const results = main.querySelector<HTMLElement>('.vt-results');
      if (!results) return undefined;
      // The rows of the area's width, as the app's list measures it (its scroll bar left out).
      const box = { width: results.clientWidth, height: results.clientHeight };
      results.innerHTML = resultRowsMarkup(search.first, answer.response.docs, box, ctx);
      return results.querySelector('img') ?? undefined;
    });
    return { picture, wait: ANSWERS_WAIT_MS };
  }
  return undefined;
}
