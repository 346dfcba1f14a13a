import type { FastifyInstance } from 'fastify';
import { duplicatesCall } from '@vitrine/contract/alike';
import { registerCall } from '../http/route.ts';
import type { DuplicatesService } from './duplicates.service.ts';

export function duplicatesRoutes(app: FastifyInstance, duplicates: DuplicatesService): void {
  registerCall(app, duplicatesCall, async ({ request, query }) =>
    duplicates.report(
      { auth: request.auth, acceptLanguage: request.headers['accept-language'], client: request.ip },
      query,
    ),
  );
}
