import type { FastifyReply, FastifyRequest } from 'fastify';
import { rangeNotSatisfiable } from './errors.ts';

/** One byte range of a `Range: bytes=…` header, resolved against the size of what is sent. */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

const RANGE_SPEC = /^(\d*)-(\d*)$/;

/**
 * Reads a `Range` header as RFC 9110 §14 asks: one range `a-b`, `a-` or a suffix `-n` is sent as
 * asked (a last position past the end is cut to it, a suffix longer than the file is the whole
 * file). null means send the whole: no header, another unit, a header this does not understand (a
 * malformed one, a last position before the first), several ranges (which a server may answer
 * whole), or an If-Range that no longer matches. 'unsatisfiable' (416): a first position at or past
 * the end, or a suffix of no bytes.
 */
export function parseByteRange(header: string | undefined, size: number, ifRange?: string, etag?: string): ByteRange {
  if (!header || (ifRange && ifRange !== etag)) return null;
  const unit = /^\s*bytes\s*=(.*)$/i.exec(header);
  // Empty list elements are allowed (RFC 9110 §5.6.1): "bytes=0-9," is one range.
  const specs =
    unit?.[1]
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  if (specs.length !== 1) return null;
  const m = RANGE_SPEC.exec(specs[0] ?? '');
  const [first, last] = [m?.[1] ?? '', m?.[2] ?? ''];
  if (!m || (!first && !last)) return null;
  if (!first) {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    // A suffix of an empty file is satisfiable but has no byte to name: the whole (empty) file.
    return size === 0 ? null : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last ? Math.min(Number(last), size - 1) : size - 1 };
}

/**
 * The part of a file of `size` bytes a request asks for, with the status and headers that say so:
 * 206 and Content-Range for a range, Content-Length either way. A range outside the file is the one
 * 416 answer (`range_not_satisfiable`, its Content-Range naming the size), thrown before anything
 * else is set.
 */
export function sendRange(
  request: FastifyRequest,
  reply: FastifyReply,
  size: number,
  etag: string,
): { start: number; end: number } {
  const ifRange = request.headers['if-range'];
  const range = parseByteRange(request.headers.range, size, typeof ifRange === 'string' ? ifRange : undefined, etag);
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(size);
  const { start, end } = range ?? { start: 0, end: size - 1 };
  if (range) void reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
  void reply.header('Content-Length', end - start + 1);
  return { start, end };
}
