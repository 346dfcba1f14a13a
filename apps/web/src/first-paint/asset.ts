import type { AssetDoc } from '@vitrine/contract/search';
import { arrowBackPath } from '../components/iconPaths.ts';
import { ASSET_FRAME, frameAspect } from '../features/asset/frame.ts';
import { pickContentLanguage } from '@vitrine/contract/config-defaults';
import { altText } from '../lib/assetText.ts';
import { assetTitle } from '../lib/fieldText.ts';
import type { PreviewAnswer } from './earlyAnswers.ts';
import { buttonMarkup, esc, type PaintContext } from './context.ts';

/**
 * The top of an asset's page as static markup (features/asset/AssetPage.tsx): the back button's
 * place, the title, and the preview picture in the media's frame, by the app's own rules
 * (app/controls.css, app/asset.css), so at the boxes the app draws them at. None where the app's media would not show this picture: without a preview, and
 * for a document with pages, whose page viewer asks for its first page itself.
 */
export function assetContent(doc: AssetDoc, preview: PreviewAnswer, ctx: PaintContext): string | undefined {
  if (!preview.url || (doc.asset_groups?.includes('document') && preview.page_count)) return undefined;
  const title = assetTitle(doc, ctx.boot.config.assetInfo.title, ctx.fields);
  const { config } = ctx.boot;
  const alt = altText(
    doc,
    config.accessibility.assets,
    pickContentLanguage(ctx.lang, config.content_languages),
    config.fallback_locale,
  );
  return [
    '<article>',
    buttonMarkup(ctx.t('views.asset.back'), { icon: arrowBackPath, className: 'vt-asset-back' }),
    `<h1 class="vt-heading-4">${esc(title)}</h1>`,
    `<img class="${ASSET_FRAME}" style="aspect-ratio:${frameAspect(doc)}" src="${esc(preview.url)}" fetchpriority="high" alt="${esc(alt)}">`,
    '</article>',
  ].join('');
}
