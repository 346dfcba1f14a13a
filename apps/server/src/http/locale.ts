import type { FastifyRequest } from 'fastify';

/** The two-letter language the request asks for (Accept-Language), or null. */
export const requestLocale = (request: FastifyRequest): string | null =>
  /^[a-z]{2}/i.exec(request.headers['accept-language'] ?? '')?.[0].toLowerCase() ?? null;
