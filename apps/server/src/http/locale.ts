import type { FastifyRequest } from 'fastify';
import { acceptedLanguages } from '@vitrine/contract/formats';

/** The language the request asks for first (Accept-Language), or null. */
export const requestLocale = (request: FastifyRequest): string | null =>
  acceptedLanguages(request.headers['accept-language'])[0] ?? null;
