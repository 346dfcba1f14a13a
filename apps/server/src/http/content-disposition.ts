/**
 * `Content-Disposition: attachment` with the file name as RFC 6266 wants it: an ASCII fallback in
 * `filename` (non-ASCII characters, quotes and backslashes replaced) and the UTF-8 name in
 * `filename*` (RFC 5987 percent-encoding), which every current browser prefers.
 */
export function attachment(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
