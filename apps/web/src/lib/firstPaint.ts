import { FIRST_PAINT_ID } from '@vitrine/contract/boot';

/**
 * Ends the page's first paint (the server's static dashboard, shown by public/first-paint.js until
 * the app's screen is drawn; its rules are in app/firstPaint.css): the app's own screen, drawn
 * behind it, is shown in its place. Called when the dashboard's hero has been drawn, by the shell on
 * any other screen, and by a screen that could not be loaded.
 */
export function endFirstPaint(doc: Document = document): void {
  doc.getElementById(FIRST_PAINT_ID)?.remove();
}
