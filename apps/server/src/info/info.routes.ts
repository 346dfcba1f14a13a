import type { FastifyInstance } from 'fastify';
import { allLanguagesCall, checkVersionCall, healthCall } from '@vitrine/contract/info';
import type { ConfigService } from '../config/config.service.ts';
import type { Db } from '../db/database.ts';
import { registerCall } from '../http/route.ts';
import { InfoRepository } from './info.repository.ts';
import { InfoService } from './info.service.ts';

export function infoRoutes(app: FastifyInstance, db: Db, config: ConfigService): void {
  const info = new InfoService(new InfoRepository(db), config);
  registerCall(app, healthCall, async () => info.health());
  registerCall(app, checkVersionCall, async () => info.version());
  registerCall(app, allLanguagesCall, async ({ query }) => ({ languages: await info.languages(query.lang) }));
}
