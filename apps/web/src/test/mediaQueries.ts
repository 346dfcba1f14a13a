/**
 * A media query list for jsdom, which has none and lays nothing out: `matches` says what the screen
 * would answer to `query` (MUI's useMediaQuery and Plyr ask).
 */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  };
}
