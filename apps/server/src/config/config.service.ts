import type { Readable } from 'node:stream';
import { configFileNames, configImageName, type ConfigFileName, type MessageSet } from '@vitrine/contract/config';
import { atWidth, type ThumbWidth } from '@vitrine/contract/paths';
import { fillConfigDefaults, mergeOverDefaults, type GlobalConfig } from '@vitrine/contract/global-config';
import { defaultTranslations } from '@vitrine/contract/translations';
import type { AccessService } from '../access/access.service.ts';
import { webpAtWidth } from '../adapters/media.ts';
import { once } from '../adapters/concurrency-limit.ts';
import type { MediaStore } from '../adapters/media-store.ts';
import type { WorkBudget } from '../jobs/work-budget.ts';
import { isBusy, notFound } from '../http/errors.ts';
import type { Auth } from '../auth/caller.ts';
import type { ConfigRepository } from './config.repository.ts';

/** A file answer: the routes stream it with its type and cache policy. */
export interface ConfigFile {
  stream: Readable;
  size: number;
  type: string;
  /** Uploaded files change without changing their name, so browsers must revalidate them. */
  lastModified: Date;
}

export type ThumbnailAnswer = { file: ConfigFile } | { redirect: string };

/** An uploaded file found in the store, not opened yet. */
interface FoundFile {
  key: string;
  size: number;
  type: string;
  lastModified: Date;
}

/** Uploaded images served in other widths: photos. SVG scales by itself; GIF and icons stay as they are. */
const resizable = new Set(['image/jpeg', 'image/png', 'image/webp']);

const bundledLanguages = Object.keys(defaultTranslations) as (keyof typeof defaultTranslations)[];

/** Recognises the file types admins upload by their first bytes, not by a trusted name. */
export function sniffType(head: Buffer, name: string): string {
  const ascii = head.subarray(0, 12).toString('latin1');
  if (head[0] === 0xff && head[1] === 0xd8) return 'image/jpeg';
  if (ascii.startsWith('\x89PNG')) return 'image/png';
  if (ascii.startsWith('GIF8')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  if (head[0] === 0 && head[1] === 0 && head[2] === 1 && head[3] === 0) return 'image/x-icon';
  if (ascii.startsWith('wOF2')) return 'font/woff2';
  if (ascii.startsWith('wOFF')) return 'font/woff';
  if (ascii.startsWith('OTTO')) return 'font/otf';
  if (head[0] === 0 && head[1] === 1 && head[2] === 0 && head[3] === 0) return 'font/ttf';
  if (name === 'style') return 'text/css; charset=utf-8';
  if (/<svg[\s>]/i.test(head.toString('utf8'))) return 'image/svg+xml';
  return 'application/octet-stream';
}

/** The folder of uploaded images in other widths, next to the uploads, named after the upload's version. */
const SIZED = 'sized';

/**
 * The configuration the portal reads: the global config (stored values over defaults), translation
 * sets, and files admins uploaded (DATA_DIR/config-files, or the object store). All of it is public:
 * the login page needs it before anyone logs in. Writing belongs to the admin area.
 */
export class ConfigService {
  /** Widths being made in this process, by file name. */
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    private readonly repository: ConfigRepository,
    /** The uploaded files (services.ts `mediaStores`). */
    private readonly files: MediaStore,
    private readonly access: AccessService,
    private readonly work: WorkBudget,
  ) {}

  async globalConfig(): Promise<GlobalConfig> {
    return fillConfigDefaults(await this.repository.get('global'));
  }

  /** Interface and content languages as configured. */
  async languages(): Promise<{ ui: string[]; content: string[]; names: Record<string, string> }> {
    const config = await this.globalConfig();
    const names = Object.fromEntries(config.visibleLocales.flatMap((l) => (l.name ? [[l.lang, l.name]] : [])));
    return { ui: config.visibleLocales.map((l) => l.lang), content: config.content_languages, names };
  }

  async availableFiles(): Promise<Record<ConfigFileName, boolean>> {
    const present = new Set(await this.files.list(''));
    return Object.fromEntries(configFileNames.map((n) => [n, present.has(n)])) as Record<ConfigFileName, boolean>;
  }

  async translationLocales(): Promise<string[]> {
    const stored = await this.repository.languages('translations');
    return [...new Set([...bundledLanguages, ...stored])].sort();
  }

  /** The message set of a language: an admin's edits over the bundled texts. */
  async translations(lang: string): Promise<MessageSet> {
    const stored = await this.repository.get('translations', lang);
    const bundled = (defaultTranslations as Record<string, MessageSet | undefined>)[lang];
    if (!bundled && stored === undefined) throw notFound(`The translation set for '${lang}'`);
    return mergeOverDefaults(bundled ?? {}, stored) as MessageSet;
  }

  /**
   * An uploaded image by its name (dashboardLogo, loginHero, …); with `width`, a photo as WebP at
   * most that wide (never wider than it is), other images as they are.
   */
  async image(name: string, width?: number): Promise<ConfigFile> {
    const parsed = configImageName.safeParse(name);
    if (!parsed.success) throw notFound(`The image '${name}'`);
    const found = await this.find(parsed.data, parsed.data).catch(() => undefined);
    if (!found) throw notFound(`The image '${name}'`);
    if (width === undefined || !resizable.has(found.type)) return this.opened(found);
    return this.atWidth(parsed.data, found, width);
  }

  /**
   * An uploaded photo at a width, made on first request and kept under a name with the upload's
   * version, so a new upload is never answered with pictures of the one before. One making per width
   * at a time in this process (others asking wait for it), in a `thumbnail` slot of the work budget:
   * the images are public, so a crowd waits at most briefly in a short line, and is then answered
   * with the upload itself rather than queued without end.
   */
  private async atWidth(name: string, original: FoundFile, width: number): Promise<ConfigFile> {
    const version = `${Math.round(original.lastModified.getTime())}-${original.size}`;
    const key = `${SIZED}/${name}.${version}.${width}.webp`;
    let made = await this.files.stat(key);
    if (!made) {
      const making = once(this.making, key, () =>
        this.work
          .run('thumbnail', 'request', () =>
            this.files.withLocalCopy(original.key, (upload) =>
              this.files.write([key], ([tmp = '']) => webpAtWidth(upload, tmp, width)),
            ),
          )
          .then(() => this.dropOtherVersions(name, version)),
      );
      // A server too busy to make it now serves the upload as it is, as it did before widths were made.
      const ready = await making.then(
        () => true,
        (err: unknown) => {
          if (isBusy(err)) return false;
          throw err;
        },
      );
      made = ready ? await this.files.stat(key) : undefined;
      if (!made) return this.opened(original);
    }
    // Dated as the upload, so a browser revalidating after a new upload gets the new picture.
    return this.opened({ key, size: made.size, type: 'image/webp', lastModified: original.lastModified });
  }

  /** Removes the widths made of earlier uploads of `name`. */
  private async dropOtherVersions(name: string, version: string): Promise<void> {
    const stale = (await this.files.list(SIZED)).filter(
      (f) => f.startsWith(`${name}.`) && !f.startsWith(`${name}.${version}.`),
    );
    await Promise.all(stale.map((f) => this.files.remove(`${SIZED}/${f}`)));
  }

  async style(): Promise<ConfigFile> {
    return this.file('style', 'The custom style sheet');
  }

  async font(): Promise<ConfigFile> {
    return this.file('custom_font', 'The custom font');
  }

  /**
   * A tile image: an image uploaded for that tile, else the thumbnail of the asset with that id when
   * the caller may see it (a redirect to its signed media URL).
   */
  async thumbnail(auth: Auth, id: string, width?: ThumbWidth): Promise<ThumbnailAnswer> {
    const safe = /^[A-Za-z0-9_-]{1,200}$/.test(id);
    if (safe) {
      const uploaded = await this.open(`thumbnail/${id}`, 'thumbnail').catch(() => undefined);
      if (uploaded) return { file: uploaded };
      const assetId = /^\d{1,15}$/.test(id) ? Number(id) : undefined;
      if (assetId !== undefined && (await this.access.checkAccess(auth, 'asset.read', [assetId])).has(assetId)) {
        const url = this.access.mediaUrl(auth, { kind: 'thumb', id: assetId });
        return { redirect: width === undefined ? url : atWidth(url, width) };
      }
    }
    throw notFound(`The tile image '${id}'`);
  }

  private async file(name: ConfigFileName, what: string): Promise<ConfigFile> {
    const found = await this.open(name, name).catch(() => undefined);
    if (!found) throw notFound(what);
    return found;
  }

  private async open(key: string, name: string): Promise<ConfigFile> {
    return this.opened(await this.find(key, name));
  }

  private async find(key: string, name: string): Promise<FoundFile> {
    const info = await this.files.stat(key);
    if (!info) throw new Error(`${key} is not a file`);
    const head = info.size === 0 ? Buffer.alloc(64) : await this.head(key, Math.min(64, info.size));
    return { key, size: info.size, type: sniffType(head, name), lastModified: info.modified };
  }

  /** The first bytes of a file, which tell its type. */
  private async head(key: string, bytes: number): Promise<Buffer> {
    const { stream } = await this.files.open(key, { start: 0, end: bytes - 1 });
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    // Zeros after a short file's end, as the sniffing always had them.
    return Buffer.concat(chunks, 64);
  }

  private async opened({ key, ...rest }: FoundFile): Promise<ConfigFile> {
    return { stream: (await this.files.open(key)).stream, ...rest };
  }
}
