/** Where the portal runs: the page's origin and path, before the '#' of its routes. */
type Place = Pick<Location, 'origin' | 'pathname'>;

/** The full address of a portal route (`path` starts with '/'), for links copied or mailed. */
export function portalLink(path: string, place: Place = window.location): string {
  return `${place.origin}${place.pathname}#${path}`;
}

/**
 * The address that shows these assets (portal-spec §4 "Shared links"): one asset's page, or the
 * search page limited to them (`/search/*?id=a,b,c`) for several.
 */
export function assetsLink(ids: readonly string[], place: Place = window.location): string {
  if (ids.length === 1) return portalLink(`/asset/${encodeURIComponent(ids[0] ?? '')}`, place);
  return portalLink(`/search/*?id=${ids.map(encodeURIComponent).join(',')}`, place);
}
