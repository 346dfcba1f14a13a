import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  availableFilesCall,
  configHistoryCall,
  configRollbackCall,
  customPageCall,
  MAX_UPLOAD_BYTES,
  saveCustomPageCall,
  saveGlobalConfigCall,
  saveTranslationsCall,
  storedConfigCall,
  storedTranslationsCall,
  uploadConfigFileCall,
  configFontCall,
  configImageCall,
  configStyleCall,
  configThumbnailCall,
  getGlobalConfigCall,
  listTranslationsCall,
} from '@vitrine/contract/config';
import { registerCall, type CallInput } from '../http/route.ts';
import type { CallDefinition } from '@vitrine/contract/call';
import { tooLarge, type ConfigAdminService } from './config-admin.service.ts';
import type { ConfigFile, ConfigService } from './config.service.ts';

/** Streams an uploaded file; browsers revalidate it since uploads keep their name. */
function sendUpload<C extends CallDefinition>({ reply }: CallInput<C>, file: ConfigFile): Promise<string> {
  return (
    reply
      .type(file.type)
      .header('Content-Length', file.size)
      .header('Last-Modified', file.lastModified.toUTCString())
      .header('Cache-Control', 'no-cache')
      .header('X-Content-Type-Options', 'nosniff')
      // An uploaded SVG opened on its own must not run scripts in the portal's origin.
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .send(file.stream) as unknown as Promise<string>
  );
}

export function configRoutes(app: FastifyInstance, config: ConfigService): void {
  registerCall(app, getGlobalConfigCall, async () => config.globalConfig());
  registerCall(app, availableFilesCall, async () => config.availableFiles());
  registerCall(app, listTranslationsCall, async ({ query }) =>
    query.lang ? config.translations(query.lang) : { locales: await config.translationLocales() },
  );
  registerCall(app, configStyleCall, async (input) => sendUpload(input, await config.style()));
  registerCall(app, configFontCall, async (input) => sendUpload(input, await config.font()));
  registerCall(app, configThumbnailCall, async (input) => {
    const answer = await config.thumbnail(input.request.auth, input.query.id, input.query.w);
    if ('redirect' in answer) return input.reply.redirect(answer.redirect, 302) as unknown as Promise<string>;
    return sendUpload(input, answer.file);
  });
  registerCall(app, configImageCall, async (input) =>
    sendUpload(input, await config.image(input.params.name ?? '', input.query.w)),
  );
}

/** The first file of a multipart upload; null for an empty body (a delete). */
async function readUpload(request: FastifyRequest): Promise<Buffer | null> {
  if (!request.isMultipart()) return null;
  const part = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
  if (!part) return null;
  try {
    return await part.toBuffer();
  } catch (error) {
    // @fastify/multipart's own error for a file over the limit.
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
}

/** The admin area's calls (admin-spec §7): GUI admins only, except reading custom pages. */
export function configAdminRoutes(app: FastifyInstance, admin: ConfigAdminService): void {
  registerCall(app, storedConfigCall, async ({ request }) => admin.storedConfig(request.auth));
  registerCall(app, saveGlobalConfigCall, async ({ request, body }) => admin.saveConfig(request.auth, body));
  registerCall(app, configHistoryCall, async ({ request, query }) => admin.history(request.auth, query.limit));
  registerCall(app, configRollbackCall, async ({ request, body }) => admin.rollback(request.auth, body.id));
  registerCall(app, storedTranslationsCall, async ({ request }) => admin.storedTranslations(request.auth));
  registerCall(app, saveTranslationsCall, async ({ request, query, body }) =>
    admin.saveTranslations(request.auth, query.lang, body),
  );
  registerCall(app, customPageCall, async ({ query }) =>
    query.lang ? admin.customPage(query.lang) : admin.customPageLocales(),
  );
  registerCall(app, saveCustomPageCall, async ({ request, query, body }) =>
    admin.saveCustomPage(request.auth, query.lang, body),
  );
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0 } });
    registerCall(scope, uploadConfigFileCall, async ({ request, params, query }) =>
      admin.upload(request.auth, { name: params.name ?? '', id: query.id }, () => readUpload(request)),
    );
  });
}
