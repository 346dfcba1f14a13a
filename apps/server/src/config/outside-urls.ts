// A scheme (`https:`, `javascript:`) or a start a URL parser reads as another host (`//`, `/\`).
const ABSOLUTE = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|[/\\]{2})/;

/** A URL as browsers read it: they ignore tabs, line breaks and control characters in it. */
export const asRead = (url: string): string => [...url].filter((c) => c.charCodeAt(0) > 0x20).join('');

/** Whether a URL leaves the portal: anything but a relative path, a path on this host or `data:`. */
export function leavesPortal(url: string): boolean {
  const v = asRead(url);
  return ABSOLUTE.test(v) && !/^data:/i.test(v);
}

/** Whether an origin matches one of the allowed ones (`https://*.example.org` takes its subdomains). */
function allowedOrigin(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => {
    const pattern = a.toLowerCase();
    if (!pattern.startsWith('https://*.')) return origin === pattern;
    return origin.endsWith(pattern.slice('https://*'.length));
  });
}

/**
 * The picture addresses of a custom page that the web app's Content-Security-Policy would refuse:
 * anything that leaves the portal, unless it is an https address on one of `allowed`
 * (`customPages.imageOrigins`).
 */
export function outsidePictures(sources: readonly string[], allowed: readonly string[]): string[] {
  return sources.filter((source) => {
    if (!leavesPortal(source)) return false;
    try {
      const url = new URL(asRead(source));
      return url.protocol !== 'https:' || !allowedOrigin(url.origin, allowed);
    } catch {
      return true;
    }
  });
}
