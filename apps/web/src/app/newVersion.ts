const RELOADED_AT = 'vitrine:reloaded-for-new-version';
/** A second failure this soon after reloading is a broken chunk, not an upgrade: show its error. */
const AGAIN_AFTER_MS = 60_000;

/**
 * A portal upgraded while this page was open no longer serves the code chunks the page was built
 * with, so the next screen that loads one fails. The page then loads the new version instead, once,
 * at the route the visitor was going to (`pendingRoute`, e.g. "/login?x=1"), so no click is lost.
 */
export function reloadOnStaleChunks(pendingRoute: () => string | undefined, win: Window = window): void {
  win.addEventListener('vite:preloadError', (event) => {
    const last = Number(win.sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < AGAIN_AFTER_MS) return;
    win.sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    event.preventDefault();
    const route = pendingRoute();
    if (route !== undefined) win.history.replaceState(null, '', `#${route}`);
    win.location.reload();
  });
}
