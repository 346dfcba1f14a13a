import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessService } from '../access/access.service.ts';
import type { Db } from '../db/database.ts';
import { sendFile } from '../http/send-file.ts';
import { DerivativeRepository } from '../jobs/derivative.repository.ts';
import { renderPdfPageOnDemand } from '../jobs/derivatives.job.ts';
import type { Settings } from '../settings.ts';
import { MediaService, type MediaKind } from './media.service.ts';

interface MediaParams {
  id: string;
  page?: string;
}
interface MediaQuery {
  exp?: string;
  sig?: string;
}

/** GET and HEAD /media/thumb/:id, /media/preview/:id[/:page], /media/video/:id (signed URLs). */
export function mediaRoutes(app: FastifyInstance, db: Db, settings: Settings, access: AccessService): void {
  const media = new MediaService(new DerivativeRepository(db.kysely), access, settings.dataDir, (id, page) =>
    renderPdfPageOnDemand(db.kysely, settings.dataDir, id, page),
  );
  const handler =
    (kind: MediaKind) =>
    async (request: FastifyRequest<{ Params: MediaParams; Querystring: MediaQuery }>, reply: FastifyReply) => {
      const answer = await media.resolve({ kind, ...request.params, ...request.query });
      if (answer.type === 'placeholder') {
        return reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=60').send(answer.svg);
      }
      return sendFile(request, reply, { ...answer, cacheControl: 'public, max-age=31536000, immutable' });
    };
  app.get('/media/thumb/:id', handler('thumb'));
  app.get('/media/preview/:id', handler('preview'));
  app.get('/media/preview/:id/:page', handler('preview'));
  app.get('/media/video/:id', handler('video'));
}
