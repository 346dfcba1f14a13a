import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { getSessionCall } from '@vitrine/contract/session';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import { ConfigRepository } from './config/config.repository.ts';
import { ConfigAdminService } from './config/config-admin.service.ts';
import { configAdminRoutes, configRoutes } from './config/config.routes.ts';
import { ConfigService } from './config/config.service.ts';
import { openDatabase, type Db } from './db/database.ts';
import { createMailer } from './adapters/mail.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installXsrf } from './http/xsrf.ts';
import { infoRoutes } from './info/info.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { installAuth } from './session/auth.ts';
import { AuthService } from './session/auth.service.ts';
import { LoginThrottleRepository } from './session/login-throttle.repository.ts';
import { SessionRepository } from './session/session.repository.ts';
import { sessionRoutes } from './session/session.routes.ts';
import { SessionService } from './session/session.service.ts';
import { mailSettings, type Settings } from './settings.ts';
import { ssoRoutes } from './sso/sso.routes.ts';
import { SsoService } from './sso/sso.service.ts';
import { userRoutes } from './user/user.routes.ts';
import { UserRepository } from './user/user.repository.ts';
import { UserService } from './user/user.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    settings: Settings;
  }
}

export interface BuildOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | object;
}

function loggerFor(settings: Settings, option: BuildOptions['logger']): boolean | object {
  if (option !== undefined) return option;
  if (process.stdout.isTTY) {
    return { level: settings.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } };
  }
  return { level: settings.logLevel };
}

/** Builds the whole server without listening, so tests can drive it over HTTP with inject(). */
export async function buildApp(settings: Settings, options: BuildOptions = {}): Promise<FastifyInstance> {
  const db = await openDatabase(settings.database);
  const app = Fastify({
    logger: loggerFor(settings, options.logger),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: true,
    routerOptions: { maxParamLength: 500 },
  });
  app.decorate('db', db);
  app.decorate('settings', settings);
  app.addHook('onClose', async () => db.close());

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  await app.register(fastifyCookie);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Vitrine portal API', version: BACKEND_VERSION },
      servers: [{ url: settings.publicUrl }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${API_BASE_PATH}docs` });

  const sessions = new SessionRepository(db);
  const auth = new AuthService(sessions, settings);
  installAuth(app, (request) => auth.resolve(request));
  installXsrf(app, { exempt: [getSessionCall.path, 'sso/*'], secure: settings.publicUrl.startsWith('https:') });
  const users = new UserRepository(db);
  const throttle = new LoginThrottleRepository(db);
  const mailer = createMailer(mailSettings(settings), app.log);

  const sso = new SsoService(settings, users, auth, app.log);
  sessionRoutes(app, new SessionService(auth, sessions, users, throttle, settings, sso));
  ssoRoutes(app, sso);
  userRoutes(app, new UserService(users, throttle, settings, mailer, app.log));

  const config = new ConfigService(new ConfigRepository(db), settings.dataDir, settings.secret);
  configRoutes(app, config);
  configAdminRoutes(app, new ConfigAdminService(new ConfigRepository(db), settings.dataDir));
  infoRoutes(app, db, config);
  searchRoutes(app, db, settings);
  mediaRoutes(app, db, settings);

  await serveWebApp(app, settings.webDist);
  return app;
}

/** The built single-page app: hashed assets are immutable, index.html is always revalidated. */
async function serveWebApp(app: FastifyInstance, dist: string): Promise<void> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.get('/', async (_req, reply) =>
      reply.type('text/plain').send('The web app is not built yet: run `npm run build` (npm run setup does it).'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: ['index.html'],
    // Our own Cache-Control below; the plugin's default (max-age=0) would replace it.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
