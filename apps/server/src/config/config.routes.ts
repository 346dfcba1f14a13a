import type { FastifyInstance } from 'fastify';
import {
  availableFilesCall,
  configFontCall,
  configImageCall,
  configStyleCall,
  configThumbnailCall,
  getGlobalConfigCall,
  listTranslationsCall,
} from '@vitrine/contract/config';
import { registerCall, type CallInput } from '../http/route.ts';
import type { CallDefinition } from '@vitrine/contract/call';
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
    const answer = await config.thumbnail(input.request.auth, input.query.id);
    if ('redirect' in answer) return input.reply.redirect(answer.redirect, 302) as unknown as Promise<string>;
    return sendUpload(input, answer.file);
  });
  registerCall(app, configImageCall, async (input) => sendUpload(input, await config.image(input.params.name ?? '')));
}
