import { isUtf8 } from 'node:buffer';
import { writeFile } from 'node:fs/promises';
import {
  configFileName,
  MAX_UPLOAD_BYTES,
  type ConfigFileName,
  type ConfigVersion,
  type MessageSet,
} from '@vitrine/contract/config';
import { fillConfigDefaults, type GlobalConfig } from '@vitrine/contract/global-config';
import { probeImage } from '../adapters/media.ts';
import type { MediaStore } from '../adapters/media-store.ts';
import { pageImageSources, sanitizePageHtml } from '../adapters/html.ts';
import { notFound, payloadTooLarge, unsupportedMediaType, validation } from '../http/errors.ts';
import { requireGuiAdmin, type Auth } from '../auth/caller.ts';
import type { ConfigRepository } from './config.repository.ts';
import { sniffType } from './config.service.ts';
import { outsidePictures } from './outside-urls.ts';
import { resetMailProblems } from './reset-mail.ts';
import { styleSheetProblems } from './style-sheet.ts';

export interface CustomPage {
  heading: string;
  html: string;
}

/** Reads an uploaded file; null when the request carries none (which deletes the stored one). */
export type UploadReader = () => Promise<Buffer | null>;

const fonts = new Set(['font/woff2', 'font/woff', 'font/otf', 'font/ttf']);
const rasterImages = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * What GUI admins change (admin-spec §7 "Calls"): the global config with its history, translation
 * sets, custom pages and uploaded files. Every write checks the caller first; custom pages are stored
 * as written and served sanitised.
 */
export class ConfigAdminService {
  constructor(
    private readonly repository: ConfigRepository,
    /** The uploaded files (services.ts `mediaStores`). */
    private readonly files: MediaStore,
    /** Where custom pages may show pictures from besides the portal (`customPages.imageOrigins`). */
    private readonly imageOrigins: readonly string[] = [],
  ) {}

  async storedConfig(auth: Auth): Promise<{ config: Record<string, unknown> | null }> {
    requireGuiAdmin(auth);
    const stored = await this.repository.get('global');
    return { config: typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : null };
  }

  async saveConfig(auth: Auth, config: GlobalConfig): Promise<GlobalConfig> {
    requireGuiAdmin(auth);
    await this.repository.save('global', '', config, auth.name ?? '');
    return fillConfigDefaults(config);
  }

  async history(auth: Auth, limit: number): Promise<{ versions: ConfigVersion[] }> {
    requireGuiAdmin(auth);
    const rows = await this.repository.history('global', '', limit);
    return {
      versions: rows.map(({ body, ...row }) => {
        const version = (body as { version?: unknown } | null)?.version;
        return { ...row, version: typeof version === 'string' ? version : '' };
      }),
    };
  }

  /** Saves an earlier version again, as a new entry of the history. */
  async rollback(auth: Auth, id: number): Promise<GlobalConfig> {
    requireGuiAdmin(auth);
    const body = await this.repository.historyEntry('global', '', id);
    if (body === undefined) throw notFound(`The configuration version ${id}`);
    await this.repository.save('global', '', body, auth.name ?? '', id);
    return fillConfigDefaults(body);
  }

  /** The translation sets as stored, without the bundled texts the portal serves beneath them. */
  async storedTranslations(auth: Auth): Promise<{ translations: Record<string, MessageSet> }> {
    requireGuiAdmin(auth);
    const translations: Record<string, MessageSet> = {};
    for (const lang of await this.repository.languages('translations')) {
      const stored = await this.repository.get('translations', lang);
      if (typeof stored === 'object' && stored !== null) translations[lang] = stored as MessageSet;
    }
    return { translations };
  }

  async saveTranslations(auth: Auth, lang: string, texts: MessageSet): Promise<{ ok: true }> {
    requireGuiAdmin(auth);
    const problems = resetMailProblems(texts);
    if (problems.length > 0) {
      throw validation(
        `The password-reset and invitation mails: ${problems.map((p) => `${p.path.slice('body.'.length)} ${p.message}`).join('; ')}.`,
        problems,
      );
    }
    await this.repository.save('translations', lang, texts, auth.name ?? '');
    return { ok: true };
  }

  async customPageLocales(): Promise<{ locales: string[] }> {
    return { locales: await this.repository.languages('custom_html') };
  }

  /** A custom page as the portal shows it: without scripts, event handlers or script URLs. */
  async customPage(lang: string): Promise<CustomPage> {
    const page = (await this.repository.get('custom_html', lang)) as CustomPage | undefined;
    if (!page) throw notFound(`The custom page for '${lang}'`);
    return { heading: page.heading, html: sanitizePageHtml(page.html) };
  }

  /**
   * Stores a custom page; one with a picture from an address the web app's Content-Security-Policy
   * refuses (outside the portal and `customPages.imageOrigins`) is refused, so the admin learns why
   * it would not show.
   */
  async saveCustomPage(auth: Auth, lang: string, page: CustomPage): Promise<{ ok: true }> {
    requireGuiAdmin(auth);
    const outside = outsidePictures(pageImageSources(page.html), this.imageOrigins);
    if (outside.length > 0) {
      const allowed = this.imageOrigins.length > 0 ? this.imageOrigins.join(', ') : 'none';
      throw validation(
        `Pictures of a page must be files in the portal, data: URLs or on an address the settings allow ` +
          `(customPages.imageOrigins: ${allowed}): ${outside.join(', ')}`,
        outside.map((url) => ({ path: 'body.html', message: `shows a picture from ${url}` })),
      );
    }
    await this.repository.save('custom_html', lang, page, auth.name ?? '');
    return { ok: true };
  }

  /**
   * Stores an uploaded file under its name (a tile image under its id) after checking what it really
   * is; no file deletes it.
   */
  async upload(
    auth: Auth,
    target: { name: string; id?: string | undefined },
    read: UploadReader,
  ): Promise<{ saved: boolean; deleted: boolean }> {
    requireGuiAdmin(auth);
    const { kind, relative } = uploadTarget(target);
    const data = await read();
    if (!data || data.length === 0) {
      const existed = await this.files.exists(relative);
      if (existed) await this.files.remove(relative);
      return { saved: false, deleted: existed };
    }
    if (data.length > MAX_UPLOAD_BYTES) throw tooLarge();
    await checkContent(kind, data);
    await this.files.write([relative], ([tmp = '']) => writeFile(tmp, data));
    return { saved: true, deleted: false };
  }
}

export const tooLarge = () => payloadTooLarge(`The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`);

const unsupported = unsupportedMediaType;

type UploadKind = ConfigFileName | 'thumbnail';

/** Where an upload is stored below the files folder: by its name, a tile image by its id. */
function uploadTarget({ name, id }: { name: string; id?: string | undefined }): {
  kind: UploadKind;
  relative: string;
} {
  if (name === 'thumbnail') {
    if (id === undefined) throw validation('A tile image needs the id of its collection tile (query parameter id).');
    return { kind: 'thumbnail', relative: `thumbnail/${id}` };
  }
  const parsed = configFileName.safeParse(name);
  if (!parsed.success) throw notFound(`The file name '${name}'`);
  return { kind: parsed.data, relative: parsed.data };
}

async function checkContent(name: UploadKind, data: Buffer): Promise<void> {
  const type = sniffType(data.subarray(0, 64), name);
  if (name === 'style') {
    if (data.includes(0) || !isUtf8(data)) throw unsupported('The style sheet must be a CSS text file.');
    const problems = styleSheetProblems(data.toString('utf8'));
    if (problems.length > 0) {
      const lines = problems.map((p) => `line ${p.line}: ${p.what.length > 80 ? `${p.what.slice(0, 80)}…` : p.what}`);
      throw validation(
        `The style sheet may load only the portal's own files and data: URLs, and may not use @import (${lines.join('; ')}).`,
        lines.map((message) => ({ path: 'file', message })),
      );
    }
    return;
  }
  if (name === 'custom_font') {
    if (!fonts.has(type)) throw unsupported('The font must be a WOFF2, WOFF, OpenType or TrueType file.');
    return;
  }
  if (type === 'image/x-icon' && name === 'favicon') return;
  if (type === 'image/svg+xml') return;
  if (!rasterImages.has(type)) throw unsupported('The file is not an image (JPEG, PNG, GIF, WebP or SVG).');
  await probeImage(data).catch(() => {
    throw unsupported('The image cannot be read.');
  });
}
