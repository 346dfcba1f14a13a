import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this an answer is sent as it is: compressing it saves less than a packet. */
const MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/** The encoding of a response the caller accepts, Brotli before gzip (q=0 refuses one). */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  const offered = new Map(
    (header ?? '').split(',').map((part) => {
      const [name = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return [name.trim().toLowerCase(), q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  if ((offered.get('br') ?? 0) > 0) return 'br';
  if ((offered.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/** Compresses `data` as `encoding`; `strong` for what is made once and sent many times. */
export function compress(data: Buffer | string, encoding: Encoding, strong = false): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(data, { level: strong ? 9 : 6 });
  return brotli(data, {
    params: {
      // Quality 4 compresses JSON about as well as gzip -9 at several times its speed.
      [constants.BROTLI_PARAM_QUALITY]: strong ? 9 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(data),
    },
  });
}

/** Adds an encoding to the Vary header of a reply, keeping what it names. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/accept-encoding/i.test(vary)) reply.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * JSON answers of 1 KB and more (search results, collections, texts) go out compressed when the
 * caller accepts it: a phone on a slow network waits for a fifth of the bytes. Files, streams and
 * ranges are left alone (they are sent as they are stored; pictures and videos are compressed).
 */
export function installJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < MIN_BYTES || reply.hasHeader('content-encoding')) {
      return payload;
    }
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    varyOnEncoding(reply);
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    reply.header('Content-Encoding', encoding);
    reply.removeHeader('content-length');
    return compress(payload, encoding);
  });
}
