import { FIRST_PAINT_ID } from '@vitrine/contract/boot';
import type { PortalPage } from '@vitrine/contract/paths';

/**
 * Ends the page's first paint (shown by the page's script, src/first-paint, until the app's screen is
 * drawn; its rules are in app/firstPaint.css): the app's own screen, drawn behind it, is shown in its
 * place. Called by the screen the first paint stands for once it has drawn its content (the
 * dashboard's hero, an asset's media, the search's results or what it says instead), by the shell
 * on any other screen and after a while, and by a screen that could not be loaded.
 */
export function endFirstPaint(doc: Document = document): void {
  doc.getElementById(FIRST_PAINT_ID)?.remove();
}

/** The page the first paint stands for while it is shown (its `data-page`). */
export function firstPaintPage(doc: Document = document): PortalPage | undefined {
  return (doc.getElementById(FIRST_PAINT_ID)?.dataset.page as PortalPage | undefined) ?? undefined;
}
