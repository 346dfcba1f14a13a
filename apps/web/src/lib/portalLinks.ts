import { assetsRoute, portalLink as linkOn, type PortalRoute } from '@vitrine/contract/paths';

/** Where the portal runs: the page's origin and path, before the '#' of its routes. */
type Place = Pick<Location, 'origin' | 'pathname'>;

/** The full address of a portal route on the page the portal runs on, for links copied or mailed. */
export function portalLink(route: PortalRoute, place: Place = window.location): string {
  return linkOn(`${place.origin}${place.pathname}`, route);
}

/**
 * The address that shows these assets (portal-spec §4 "Shared links"): one asset's page, or the
 * search page limited to them (`/search/*?id=a,b,c`) for several.
 */
export function assetsLink(ids: readonly string[], place: Place = window.location): string {
  return portalLink(assetsRoute(ids), place);
}
