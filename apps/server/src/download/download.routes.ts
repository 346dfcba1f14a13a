import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  downloadCall,
  orderCall,
  previewCall,
  videoCall,
  zipDownloadCall,
  zipListCall,
} from '@vitrine/contract/download';
import { downloadInfoCall } from '@vitrine/contract/info';
import { mediaPatterns } from '@vitrine/contract/paths';
import { convertSetsCall } from '@vitrine/contract/session';
import { writeZip } from '../adapters/zip.ts';
import { sendRange } from '../http/byte-range.ts';
import { whenClientGoes } from '../http/client-gone.ts';
import { attachment } from '../http/content-disposition.ts';
import { registerCall } from '../http/route.ts';
import { sendFile, whenDelivered } from '../http/send-file.ts';
import { mediaCacheControl } from '../access/media-url.ts';
import type { DownloadService } from './download.service.ts';

interface Signed {
  exp?: string;
  sig?: string;
  /** The share link the URL was minted for. */
  share?: string;
  /** Who the URL was handed to. */
  by?: string;
}

/** Downloads are kept in the downloader's own cache only, at most this long (and not past the signature). */
const DOWNLOAD_CACHE_SECONDS = 600;

const caller = (request: FastifyRequest) => ({
  auth: request.auth,
  acceptLanguage: request.headers['accept-language'],
});

/** The calls of portal-spec §7 about downloads (and zips of lists), and the signed /media/download and /media/zip files. */
export function downloadRoutes(app: FastifyInstance, downloads: DownloadService): void {
  registerCall(app, convertSetsCall, async ({ request, query }) =>
    downloads.convertSets(caller(request), query.asset_id),
  );
  registerCall(app, downloadInfoCall, async ({ request }) => downloads.info(request.auth));
  registerCall(app, previewCall, async ({ request, query }) => downloads.preview(request.auth, query));
  registerCall(app, downloadCall, async ({ request, reply, query }) =>
    downloads.single(request.auth, query, whenClientGoes(reply)),
  );
  registerCall(app, zipDownloadCall, async ({ request, reply, query }) =>
    downloads.zip(request.auth, query, whenClientGoes(reply)),
  );
  registerCall(app, zipListCall, async ({ request, reply, body }) =>
    downloads.zipList(request.auth, body, whenClientGoes(reply)),
  );
  registerCall(app, videoCall, async ({ request, params }) => downloads.video(caller(request), params.id ?? ''));
  registerCall(app, orderCall, async ({ request, body }) =>
    downloads.order(request.auth, { ...body, client: request.ip }),
  );

  app.get(
    mediaPatterns.download,
    async (request: FastifyRequest<{ Params: { id: string; cset: string }; Querystring: Signed }>, reply) => {
      const file = await downloads.signedFile(
        { ...request.params, ...request.query, client: request.ip },
        whenClientGoes(reply),
      );
      return sendFile(request, reply, {
        ...file,
        cacheControl: mediaCacheControl(request.query.exp, 'private', DOWNLOAD_CACHE_SECONDS),
        onDelivered: () => downloads.delivered(file.delivery, logFailure(request)),
      });
    },
  );

  app.get(
    mediaPatterns.caption,
    async (request: FastifyRequest<{ Params: { id: string; track: string }; Querystring: Signed }>, reply) => {
      const caption = await downloads.signedCaption({ ...request.params, ...request.query });
      // A URL minted for a share link is cached by the visitor's browser only (media.routes.ts).
      const scope = request.query.share === undefined ? 'public' : 'private';
      return reply
        .type('text/vtt; charset=utf-8')
        .header('ETag', caption.etag)
        .header('Cache-Control', mediaCacheControl(request.query.exp, scope))
        .send(caption.text);
    },
  );

  app.get(
    mediaPatterns.zip,
    async (request: FastifyRequest<{ Params: { cset: string }; Querystring: Signed & { ids?: string } }>, reply) => {
      const zip = await downloads.signedZip(
        { ...request.query, cset: request.params.cset, ids: request.query.ids ?? '', client: request.ip },
        whenClientGoes(reply),
      );
      return sendZip(request, reply, zip, {
        cacheControl: mediaCacheControl(request.query.exp, 'private', DOWNLOAD_CACHE_SECONDS),
        onDelivered: () => downloads.delivered(zip.delivery, logFailure(request)),
      });
    },
  );

  app.get(
    mediaPatterns.zipList,
    async (request: FastifyRequest<{ Params: { cset: string; ref: string }; Querystring: Signed }>, reply) => {
      const zip = await downloads.signedZipList(
        { ...request.query, ...request.params, client: request.ip },
        whenClientGoes(reply),
      );
      return sendZip(request, reply, zip, {
        cacheControl: mediaCacheControl(request.query.exp, 'private', DOWNLOAD_CACHE_SECONDS),
        onDelivered: () => downloads.delivered(zip.delivery, logFailure(request)),
      });
    },
  );
}

const logFailure = (request: FastifyRequest) => (err: unknown) =>
  request.log.error({ err }, 'a delivered download could not be logged');

/**
 * Streams a planned zip (or the asked byte range of it) with its length known up front. The bytes
 * are written straight into the response rather than handed to Fastify as a stream, so that the zip
 * writer can read into the same few blocks again once the socket has taken them (adapters/zip.ts);
 * the response's own headers go out with the first bytes. HEAD answers the headers without reading.
 * `onDelivered` is called once a whole zip went out (see `whenDelivered`).
 */
async function sendZip(
  request: FastifyRequest,
  reply: FastifyReply,
  zip: Awaited<ReturnType<DownloadService['signedZip']>>,
  send: { cacheControl: string; onDelivered: () => void },
): Promise<FastifyReply> {
  const size = zip.plan.size;
  void reply
    .header('Content-Type', 'application/zip')
    .header('ETag', zip.etag)
    .header('Cache-Control', send.cacheControl)
    .header('Accept-Ranges', 'bytes');
  const { start, end } = sendRange(request, reply, size, zip.etag);
  void reply.header('Content-Disposition', attachment(zip.filename));
  whenDelivered(request, reply, { start, end, size }, send.onDelivered);
  reply.hijack();
  const res = reply.raw;
  res.statusCode = reply.statusCode;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
  if (request.method === 'HEAD') {
    res.end();
    return reply;
  }
  try {
    await writeZip(zip.plan, res, start, end);
    res.end();
  } catch (err) {
    // The client sees a body shorter than its Content-Length, so it knows the download is broken.
    if (res.destroyed) request.log.info({ err }, 'zip download ended by the client');
    else request.log.warn({ err }, 'zip download stopped');
    res.destroy();
  }
  return reply;
}
