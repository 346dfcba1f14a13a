import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
}

/** GET and HEAD /media/thumb/:id, /media/preview/:id[/:page], /media/video/:id (signed URLs). */
export function mediaRoutes(app: FastifyInstance, media: MediaService): void {
  const handler =
    (kind: MediaKind) =>
    async (request: FastifyRequest<{ Params: MediaParams; Querystring: MediaQuery }>, reply: FastifyReply) => {
      const answer = await media.resolve({ kind, ...request.params, ...request.query });
      if (answer.type === 'placeholder') {
        return reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=60').send(answer.svg);
      }
      // A cache must not serve the file past the signature's end (or keep it after access is
      // withdrawn for longer than that); `exp` was checked by resolve().
      const remaining = Math.max(0, Math.floor(Number(request.query.exp) - Date.now() / 1000));
      return sendFile(request, reply, { ...answer, cacheControl: `public, max-age=${remaining}` });
    };
  app.get('/media/thumb/:id', handler('thumb'));
  app.get('/media/preview/:id', handler('preview'));
  app.get('/media/preview/:id/:page', handler('preview'));
  app.get('/media/video/:id', handler('video'));
}
