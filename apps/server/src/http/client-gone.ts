import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client closes the connection before its answer went out (it cancelled, or its
 * page was closed): work done only for that answer can stop.
 */
export function whenClientGoes(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}
