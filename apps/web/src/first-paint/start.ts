import { endFirstPaint } from '../lib/firstPaint.ts';
import type { Painted } from './paint.ts';

/** What the server gives the page's script (apps/server/src/config/first-paint.ts preparePage). */
export interface StartData {
  /** The app's entry module. */
  entry?: string;
  /** The modules that entry needs at once, space-separated. */
  preloads?: string;
  /** Per screen, the start of its route and its files: 'start file file;start file …'. */
  screens?: string;
}

/** The files of the screen at this address (`#/search/*` is at `/search`; no address is the dashboard's `/`). */
export function screenFilesAt(hash: string, screens: string): string[] {
  const at = hash.slice(1).split('?')[0] || '/';
  for (const screen of screens.split(';').filter(Boolean)) {
    const [start = '', ...files] = screen.split(' ');
    if (at === start || at.startsWith(`${start}/`)) return files;
  }
  return [];
}

/**
 * Starts the app: its entry module, with the modules that entry needs at once asked for beside it,
 * and those of the screen the address shows (its chunks and style sheets that the entry does not
 * load), which would otherwise be asked for only once the entry has arrived and run (decision 0243).
 */
export function startApp(data: StartData, doc: Document = document, hash = window.location.hash): void {
  if (!data.entry) return;
  for (const href of [
    ...(data.preloads ?? '').split(' ').filter(Boolean),
    ...screenFilesAt(hash, data.screens ?? ''),
  ]) {
    const link = doc.createElement('link');
    const style = href.endsWith('.css');
    // A style sheet is only fetched: the app's load of the screen applies it.
    link.rel = style ? 'preload' : 'modulepreload';
    if (style) link.as = 'style';
    link.crossOrigin = '';
    link.href = href;
    doc.head.append(link);
  }
  // An entry that cannot be loaded leaves the page empty, as its module script did before.
  import(/* @vite-ignore */ data.entry).catch(() => endFirstPaint(doc));
}

/**
 * Runs `start` once the first paint's picture has arrived and been drawn, at most `painted.wait` ms
 * after now, so that the screen's largest picture has the line to itself (decision 0242); at once
 * without a first paint or a picture.
 */
export function startAfterPicture(painted: Painted | undefined, start: () => void): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    start();
  };
  if (!painted) return go();
  setTimeout(go, painted.wait);
  // After the frame that draws the picture.
  const afterFrame = () => requestAnimationFrame(() => setTimeout(go, 0));
  painted.picture.then((picture) => {
    if (!picture || picture.complete) return go();
    picture.addEventListener('load', afterFrame);
    picture.addEventListener('error', afterFrame);
  }, go);
}
