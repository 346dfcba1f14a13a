import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Sends a file with what browsers, video players and CDNs expect: ETag and If-None-Match, a single
 * byte range (206, or 416 when it lies outside the file).
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { path: string; mime: string; etag: string; cacheControl: string },
): Promise<FastifyReply> {
  const size = (await stat(file.path)).size;
  void reply
    .header('Content-Type', file.mime)
    .header('ETag', file.etag)
    .header('Cache-Control', file.cacheControl)
    .header('Accept-Ranges', 'bytes');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === file.etag)) return reply.code(304).send();

  let start = 0;
  let end = size - 1;
  const range = request.headers.range;
  const ifRange = request.headers['if-range'];
  if (range && (!ifRange || ifRange === file.etag)) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (m && (m[1] || m[2])) {
      if (m[1]) {
        start = Number(m[1]);
        end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(m[2]));
      }
      if (start > end || start >= size) {
        return reply
          .code(416)
          .header('Content-Range', `bytes */${size}`)
          .type('text/plain')
          .send('Range Not Satisfiable');
      }
      void reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
    }
  }
  void reply.header('Content-Length', end - start + 1);
  if (end < start) return reply.send();
  // For HEAD, Fastify's automatic HEAD route drops the stream and keeps these headers.
  return reply.send(createReadStream(file.path, { start, end }));
}
