/*
 * The page's one script of its own (decisions 0242–0244), built as a classic script of its own
 * (build/first-paint-script.ts) and placed in the page by the server after the app's root element,
 * its hash in the Content-Security-Policy (apps/server/src/config/first-paint.ts). Before the app's
 * code has arrived it asks for the first screen's answers (earlyAnswers.ts), paints the first
 * screen from the page's templates and those answers (paint.ts), and then starts the app (start.ts),
 * whose calls take the answers and whose screen takes the first paint's place (lib/firstPaint.ts).
 */
import { bootData } from '../lib/bootData.ts';
import { askFirstAnswers, type FirstAnswers } from './earlyAnswers.ts';
import { endFirstPaint } from '../lib/firstPaint.ts';
import { paintFirstScreen, type Painted } from './paint.ts';
import { startAfterPicture, startApp, type StartData } from './start.ts';

const data: StartData = { ...(document.currentScript as HTMLScriptElement | null)?.dataset };
const boot = bootData();
const { hash } = window.location;
// Asked once: at once where the first paint draws from them; on the dashboard, whose hero picture
// is in the page, once that has been drawn, so that the picture has the connection to itself.
let answers: FirstAnswers | undefined;
let asked = false;
const ask = () => {
  if (!asked) answers = askFirstAnswers(hash, boot);
  asked = true;
  return answers;
};
let painted: Painted | undefined;
try {
  painted = paintFirstScreen(document, hash, boot, ask);
} catch {
  // No storage to read (a browser's private mode may refuse it), or a page without what it needs:
  // the app's first screen comes as it is.
  endFirstPaint();
}
startAfterPicture(painted, () => {
  ask();
  startApp(data);
});
