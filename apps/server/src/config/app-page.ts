import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BOOT_DATA_ELEMENT_ID, type BootData } from '@vitrine/contract/boot';
import { acceptedLanguages, FALLBACK_LOCALE, pickInterfaceLanguage } from '@vitrine/contract/languages';
import { acceptedEncoding, compress } from '../http/compression.ts';
import type { IndexField } from '@vitrine/contract/search';
import type { Auth } from '../auth/caller.ts';
import type { ConfigService } from './config.service.ts';
import { firstPaintTemplate, preparePage, TEMPLATE_SLOT } from './first-paint.ts';

/** Pages kept ready, compressed, by their content (one per language and config version). */
const KEPT_PAGES = 16;

interface ReadyPage {
  etag: string;
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The first screen's config and texts, as the portal's own calls answer them (config/global, config,
 * config/translations): the language is the one the web app will pick on a first visit, from the
 * browser's Accept-Language (a choice stored in the browser may differ; the app then loads it).
 */
export async function bootData(
  config: ConfigService,
  acceptLanguage: string | undefined,
  fields?: IndexField[],
): Promise<BootData> {
  const [globalConfig, files, locales] = await Promise.all([
    config.globalConfig(),
    config.availableFiles(),
    config.translationLocales(),
  ]);
  const language = pickInterfaceLanguage(locales, null, acceptedLanguages(acceptLanguage));
  const languages = [...new Set([language, FALLBACK_LOCALE])].filter((l) => locales.includes(l));
  const sets = await Promise.all(languages.map(async (l) => [l, await config.translations(l)] as const));
  return { config: globalConfig, files, locales, messages: Object.fromEntries(sets), ...(fields ? { fields } : {}) };
}

/**
 * The JSON as the content of a <script type="application/json">: `<` is written as \u003c, so no
 * text an admin wrote (`</script>`, `<!--`) can end the element early.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The built index.html with the boot data placed before the app's first script (or at its end). */
export function withBootData(template: string, data: BootData): string {
  const element = `<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${scriptJson(data)}</script>`;
  const at = template.indexOf('<script');
  return at < 0 ? `${template}${element}` : `${template.slice(0, at)}${element}\n    ${template.slice(at)}`;
}

/** The headers with the page's own script allowed by its hash in the CSP's script-src. */
function withScriptSource(headers: Record<string, string>, source: string | undefined): Record<string, string> {
  const csp = headers['Content-Security-Policy'];
  if (!source || !csp) return headers;
  return { ...headers, 'Content-Security-Policy': csp.replace("script-src 'self'", `script-src 'self' ${source}`) };
}

/**
 * Serves the portal's page at / and /index.html: the built index.html with the first screen's config
 * and texts (so the web app paints without waiting for a call) and the dashboard's first paint
 * (first-paint.ts; its script's hash joins the page's Content-Security-Policy), revalidated on every
 * visit by its ETag, and compressed once per version.
 */
export function serveAppPage(
  app: FastifyInstance,
  indexFile: string,
  config: ConfigService,
  headers: Record<string, string>,
  /** index/fields as the caller would get it; undefined when the caller may not search. */
  fieldsFor: (auth: Auth) => IndexField[] | undefined,
): void {
  const prepared = preparePage(readFileSync(indexFile, 'utf8'), path.dirname(indexFile));
  const pageHeaders = withScriptSource(headers, prepared.scriptSource);
  const ready = new Map<string, ReadyPage>();

  async function page(request: FastifyRequest): Promise<ReadyPage> {
    const data = await bootData(config, request.headers['accept-language'], fieldsFor(request.auth));
    // The texts' first language is the one the visitor is expected to get (bootData).
    const language = Object.keys(data.messages)[0] ?? FALLBACK_LOCALE;
    const html = withBootData(prepared.html.replace(TEMPLATE_SLOT, firstPaintTemplate(data, language)), data);
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    const kept = ready.get(etag);
    if (kept) return kept;
    const raw = Buffer.from(html);
    const [br, gz] = await Promise.all([compress(raw, 'br', true), compress(raw, 'gzip', true)]);
    const made = { etag, raw, br, gzip: gz };
    if (ready.size >= KEPT_PAGES) ready.delete(ready.keys().next().value ?? '');
    ready.set(etag, made);
    return made;
  }

  async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const made = await page(request);
    reply
      .headers(pageHeaders)
      .header('Cache-Control', 'no-cache')
      .header('ETag', made.etag)
      .header('Vary', 'Accept-Encoding, Accept-Language')
      .type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === made.etag) return reply.code(304).send();
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.send(encoding === 'br' ? made.br : encoding === 'gzip' ? made.gzip : made.raw);
  }

  app.get('/', handler);
  app.get('/index.html', handler);
}
