import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendRange } from './byte-range.ts';
import { attachment } from './content-disposition.ts';

/**
 * The bytes of a file to send, wherever they are kept (a local file, an object of the media store):
 * their size, and a stream of a part of them.
 */
export interface FileBody {
  size: number;
  open(range: { start: number; end: number }): Promise<Readable>;
}

/**
 * Calls `onDelivered` once the response has sent its whole body, when that body is the whole file
 * (`start` 0, `end` its last byte) and the request a GET: not for HEAD, a part of the file (a
 * player's or a resumed download's range) or a transfer that broke off (the response closes without
 * `finish`). A range from byte 0 to the end counts like a plain GET.
 */
export function whenDelivered(
  request: FastifyRequest,
  reply: FastifyReply,
  part: { start: number; end: number; size: number },
  onDelivered: (() => void) | undefined,
): void {
  if (!onDelivered || request.method !== 'GET' || part.start !== 0 || part.end !== part.size - 1) return;
  reply.raw.once('finish', onDelivered);
}

/**
 * Sends a file with what browsers, video players and CDNs expect: ETag and If-None-Match, a single
 * byte range (206, or 416 when it lies outside the file: `sendRange`), and `filename` as an
 * attachment. `onDelivered`: see `whenDelivered`.
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: {
    body: FileBody;
    mime: string;
    etag: string;
    cacheControl: string;
    filename?: string;
    onDelivered?: () => void;
  },
): Promise<FastifyReply> {
  const size = file.body.size;
  void reply
    .header('Content-Type', file.mime)
    .header('ETag', file.etag)
    .header('Cache-Control', file.cacheControl)
    .header('Accept-Ranges', 'bytes');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === file.etag)) return reply.code(304).send();
  const { start, end } = sendRange(request, reply, size, file.etag);
  if (file.filename !== undefined) void reply.header('Content-Disposition', attachment(file.filename));
  whenDelivered(request, reply, { start, end, size }, file.onDelivered);
  if (end < start) return reply.send();
  // For HEAD, Fastify's automatic HEAD route keeps these headers and drains the stream it is given:
  // an empty one, so that nothing is read (from the disk or the object store).
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(await file.body.open({ start, end }));
}
