import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { getSessionCall } from '@vitrine/contract/session';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import { installAuth } from './auth/caller.ts';
import { serveAppPage } from './config/app-page.ts';
import { configAdminRoutes, configRoutes } from './config/config.routes.ts';
import { bookmarkRoutes } from './bookmark/bookmark.routes.ts';
import type { Db } from './db/database.ts';
import { installJsonCompression } from './http/compression.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { logRedaction } from './http/log-redaction.ts';
import { responseSerializerCompiler } from './http/serializer.ts';
import { warnOfUntrustedForwarding } from './http/forwarded-warning.ts';
import { installStrictTransportSecurity, webAppSecurityHeaders } from './http/security-headers.ts';
import { installXsrf } from './http/xsrf.ts';
import { downloadRoutes } from './download/download.routes.ts';
import { editRoutes } from './edit/edit.routes.ts';
import { duplicatesRoutes } from './edit/duplicates.routes.ts';
import { infoRoutes } from './info/info.routes.ts';
import { insightsRoutes } from './insights/insights.routes.ts';
import { groupRoutes } from './group/group.routes.ts';
import { peopleRoutes } from './people/people.routes.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { installRequestMetrics, Metrics } from './metrics/metrics.ts';
import { searchRoutes } from './search/search.routes.ts';
import { openServices, type Services } from './services.ts';
import { sessionRoutes } from './session/session.routes.ts';
import type { Settings } from './settings.ts';
import { shareRoutes } from './share/share.routes.ts';
import { ssoRoutes } from './sso/sso.routes.ts';
import { userRoutes } from './user/user.routes.ts';
import { uploadRoutes } from './upload/upload.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    settings: Settings;
    services: Services;
    /** The Prometheus metrics, when METRICS_PORT is set; main.ts serves them on their own listener. */
    metrics: Metrics | undefined;
  }
}

export interface BuildOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | object;
  /** Told of every route as it is registered (tests audit them). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Checks every answer against its zod schema (a mismatch is a 500) instead of writing it with the
   * serializer compiled from the schema (http/serializer.ts). Default: on under NODE_ENV=test.
   */
  checkAnswers?: boolean;
}

/** The logger options; every log line has its secrets redacted (http/log-redaction.ts). */
function loggerFor(settings: Settings, option: BuildOptions['logger']): boolean | object {
  if (option === false) return false;
  if (typeof option === 'object') return { ...option, ...logRedaction };
  if (process.stdout.isTTY) {
    return {
      level: settings.logLevel,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } },
      ...logRedaction,
    };
  }
  return { level: settings.logLevel, ...logRedaction };
}

/**
 * Builds the whole server without listening, so tests can drive it over HTTP with inject(). The
 * services come from the composition root (services.ts); each domain registers its routes over its
 * service in one line below.
 */
export async function buildApp(settings: Settings, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerFor(settings, options.logger),
    bodyLimit: 2 * 1024 * 1024,
    // Slow or stalled clients must not hold connections forever (Fastify's defaults wait without end):
    // the request must arrive in time (408), a connection idle that long is closed, and headers
    // beyond 16 KiB are refused with 431.
    requestTimeout: settings.requestTimeoutMs,
    connectionTimeout: settings.requestTimeoutMs * 2,
    http: {
      headersTimeout: settings.requestTimeoutMs,
      maxHeaderSize: 16 * 1024,
      connectionsCheckingInterval: Math.min(30_000, Math.max(500, settings.requestTimeoutMs / 4)),
    },
    trustProxy: settings.trustProxy,
    routerOptions: { maxParamLength: 500 },
  });
  // Made only when asked for: with metrics off, nothing measures or collects anything.
  const metrics = settings.metrics ? new Metrics(app.log) : undefined;
  const services = await openServices(settings, { log: app.log, onEngineTimes: metrics?.engineTimes });
  if (metrics) {
    metrics.watch(services);
    installRequestMetrics(app, metrics);
  }
  app.decorate('metrics', metrics);
  app.decorate('services', services);
  app.decorate('db', services.db);
  app.decorate('settings', settings);
  app.addHook('onClose', async () => services.close());
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  installStrictTransportSecurity(app, settings.hstsSeconds);
  warnOfUntrustedForwarding(app, settings.trustProxy);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(options.checkAnswers ?? process.env.NODE_ENV === 'test'));
  // Answers never name the server's folders (the details go to the log).
  installErrorHandler(app, [settings.dataDir, tmpdir(), process.cwd(), path.resolve(import.meta.dirname, '..')]);
  installJsonCompression(app);
  await app.register(fastifyCookie);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Vitrine portal API', version: BACKEND_VERSION },
      servers: [{ url: settings.publicUrl }],
    },
    transform: jsonSchemaTransform,
    // Schemas registered with an id (recursive ones) go to components.schemas, where $refs point.
    transformObject: jsonSchemaTransformObject,
  });
  await serveApiDocs(app, settings.apiDocs);

  installAuth(app, (request) => services.auth.resolve(request));
  installXsrf(app, {
    exempt: [getSessionCall.path, 'sso/saml/:name/acs'],
    secure: settings.publicUrl.startsWith('https:'),
  });

  sessionRoutes(app, services.sessions);
  ssoRoutes(app, services.sso);
  userRoutes(app, services.users);
  configRoutes(app, services.config);
  infoRoutes(app, services.info);
  searchRoutes(app, services.search);
  mediaRoutes(app, services.media);
  downloadRoutes(app, services.downloads);
  configAdminRoutes(app, services.configAdmin);
  bookmarkRoutes(app, services.bookmarks);
  shareRoutes(app, services.shares);
  editRoutes(app, services.edits);
  duplicatesRoutes(app, services.duplicates);
  uploadRoutes(app, services.uploads);
  insightsRoutes(app, services.insights);
  groupRoutes(app, services.groups);
  peopleRoutes(app, services.people);

  await serveWebApp(
    app,
    settings.webDist,
    webAppSecurityHeaders(settings.file.customPages.imageOrigins, await presignedOrigins(settings, services)),
    services,
  );
  return app;
}

/**
 * The OpenAPI document at `docs/json`, always; the Swagger UI at `docs` only when API_DOCS asks for
 * it: it is a second web app on the portal's origin, served under the portal's own
 * Content-Security-Policy and framing rules (it has no inline script, and its validator badge,
 * which would load a picture from another site, is off).
 */
async function serveApiDocs(app: FastifyInstance, ui: boolean): Promise<void> {
  const prefix = `${API_BASE_PATH}docs`;
  if (!ui) {
    app.get(`${prefix}/json`, { schema: { hide: true } }, async () => app.swagger());
    return;
  }
  await app.register(async (docs) => {
    const headers = webAppSecurityHeaders();
    docs.addHook('onRequest', async (_request, reply) => {
      void reply.headers(headers);
    });
    await docs.register(fastifySwaggerUi, { routePrefix: prefix, uiConfig: { validatorUrl: null } });
  });
}

/**
 * The origin media files are redirected to when the object store answers them itself
 * (`S3_PRESIGN_SECONDS`): read from a URL the store signs, so it is the one browsers are sent to,
 * whatever the endpoint, path style or region. None when the server sends the files.
 */
async function presignedOrigins(settings: Settings, services: Services): Promise<string[]> {
  const store = services.stores.derivatives;
  if (settings.mediaStore.kind !== 's3' || settings.mediaStore.presignSeconds === 0 || !store.presign) return [];
  const url = await store.presign('origin', 60, { type: 'application/octet-stream', cacheControl: 'no-store' });
  return [new URL(url).origin];
}

/**
 * The built single-page app: hashed assets are immutable, the page (with the first screen's config and
 * texts, config/app-page.ts) is always revalidated; every file carries the web app's
 * Content-Security-Policy and framing rules (http/security-headers.ts).
 */
async function serveWebApp(
  app: FastifyInstance,
  dist: string,
  headers: Record<string, string>,
  services: Services,
): Promise<void> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.get('/', async (_req, reply) =>
      reply
        .headers(headers)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build` (npm run setup does it).'),
    );
    return;
  }
  serveAppPage(app, path.join(dist, 'index.html'), services.config, headers, (auth) => {
    try {
      return services.search.fields(auth).visible_fields;
    } catch {
      // A portal without guests: the app asks once the visitor has logged in.
      return undefined;
    }
  });
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    globIgnore: ['index.html', 'index.html.br', 'index.html.gz'],
    // The build writes a Brotli and a gzip copy of every text file (apps/web/build/precompress.ts);
    // the one the browser accepts is sent, with Vary: Accept-Encoding.
    preCompressed: true,
    // Our own Cache-Control below; the plugin's default (max-age=0) would replace it.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('Vary', 'Accept-Encoding');
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    },
  });
}
