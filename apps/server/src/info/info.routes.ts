import type { FastifyInstance } from 'fastify';
import { allLanguagesCall, checkVersionCall, healthCall } from '@vitrine/contract/info';
import type { Db } from '../db/database.ts';
import { registerCall } from '../http/route.ts';
import { InfoRepository } from './info.repository.ts';
import { InfoService } from './info.service.ts';

export function infoRoutes(app: FastifyInstance, db: Db): void {
  const info = new InfoService(new InfoRepository(db));
  registerCall(app, healthCall, async () => info.health());
  registerCall(app, checkVersionCall, async () => info.version());
  registerCall(app, allLanguagesCall, async ({ query }) => ({
    languages: info.languages(query.lang, ['de', 'en'], ['de', 'en']),
  }));
}
