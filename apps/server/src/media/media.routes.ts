import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mediaPatterns } from '@vitrine/contract/paths';
import { mediaCacheControl } from '../access/media-url.ts';
import { sendFile } from '../http/send-file.ts';
import type { MediaKind, MediaService } from './media.service.ts';

interface MediaParams {
  id: string;
  page?: string;
}
interface MediaQuery {
  exp?: string;
  sig?: string;
  share?: string;
  w?: string;
}

/** GET and HEAD /media/thumb/:id[?w=400|800], /media/preview/:id[/:page], /media/video/:id, /media/audio/:id (signed URLs). */
export function mediaRoutes(app: FastifyInstance, media: MediaService): void {
  const handler =
    (kind: MediaKind) =>
    async (request: FastifyRequest<{ Params: MediaParams; Querystring: MediaQuery }>, reply: FastifyReply) => {
      const { w, ...query } = request.query;
      // Only a thumbnail comes in more than one width; other files take no `w`.
      const answer = await media.resolve({ kind, ...request.params, ...query, ...(kind === 'thumb' ? { w } : {}) });
      // A URL minted for a share link is cached by the visitor's browser only: a shared cache would
      // go on serving it after the link was revoked.
      const scope = request.query.share === undefined ? 'public' : 'private';
      if (answer.type === 'placeholder') {
        return reply.type('image/svg+xml').header('Cache-Control', `${scope}, max-age=60`).send(answer.svg);
      }
      // Not cached: the redirect must not outlive the store's URL, and each one checks the signature again.
      if (answer.type === 'redirect') return reply.header('Cache-Control', 'no-store').redirect(answer.url, 302);
      const cacheControl = mediaCacheControl(request.query.exp, scope, answer.maxSeconds);
      return sendFile(request, reply, { ...answer, cacheControl });
    };
  app.get(mediaPatterns.thumb, handler('thumb'));
  app.get(mediaPatterns.preview, handler('preview'));
  app.get(mediaPatterns.previewPage, handler('preview'));
  app.get(mediaPatterns.video, handler('video'));
  app.get(mediaPatterns.audio, handler('audio'));
}
