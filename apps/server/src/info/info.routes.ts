import type { FastifyInstance } from 'fastify';
import { allLanguagesCall, checkVersionCall, healthCall, readyCall } from '@vitrine/contract/info';
import { registerCall } from '../http/route.ts';
import type { InfoService } from './info.service.ts';

export function infoRoutes(app: FastifyInstance, info: InfoService): void {
  registerCall(app, healthCall, async () => info.health());
  registerCall(app, readyCall, async () => info.ready());
  registerCall(app, checkVersionCall, async () => info.version());
  registerCall(app, allLanguagesCall, async ({ query }) => ({ languages: await info.languages(query.lang) }));
}
