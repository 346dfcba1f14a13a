import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { createCollectionCall, UPLOAD_PATH } from '@vitrine/contract/edit';
import type { TusAnswer } from '../adapters/tus.ts';
import { registerCall } from '../http/route.ts';
import type { UploadService } from './upload.service.ts';

/** Body types of tus requests, left unread for the tus server to stream. */
const TUS_BODY = 'application/offset+octet-stream';

function send(reply: FastifyReply, answer: TusAnswer) {
  // Fastify counts the body itself.
  const { 'content-length': _length, ...headers } = answer.headers;
  return reply
    .code(answer.status)
    .headers(headers)
    .send(answer.body ?? undefined);
}

/**
 * Uploads (tus, at API_BASE_PATH + UPLOAD_PATH: POST creates, HEAD asks the offset, PATCH sends
 * bytes, DELETE cancels) and the collections uploads go into (`edit/collection`).
 */
export function uploadRoutes(app: FastifyInstance, uploads: UploadService): void {
  const base = API_BASE_PATH + UPLOAD_PATH;
  void app.register(async (scope) => {
    scope.addContentTypeParser(TUS_BODY, (_request, _payload, done) => done(null));
    scope.route({
      method: 'POST',
      url: base,
      schema: { hide: true },
      handler: async (request, reply) => send(reply, await uploads.handle(request.auth, request.raw, undefined)),
    });
    scope.route<{ Params: { id: string } }>({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${base}/:id`,
      schema: { hide: true },
      handler: async (request, reply) =>
        send(reply, await uploads.handle(request.auth, request.raw, request.params.id)),
    });
  });
  registerCall(app, createCollectionCall, async ({ request, body }) => uploads.createCollection(request.auth, body));
}
