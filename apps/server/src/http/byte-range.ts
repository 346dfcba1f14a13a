/** One byte range of a `Range: bytes=…` header, resolved against the size of what is sent. */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * Reads a single range (`a-b`, `a-`, `-n`); null means send the whole (no header, a header this
 * does not understand, several ranges, or an If-Range that no longer matches).
 */
export function parseByteRange(header: string | undefined, size: number, ifRange?: string, etag?: string): ByteRange {
  if (!header || (ifRange && ifRange !== etag)) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return null;
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}
