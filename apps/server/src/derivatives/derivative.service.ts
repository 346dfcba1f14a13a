import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import { makeImageDerivatives, PREVIEW_BOX, shrinkThumbnail } from '../adapters/media.ts';
import { signatureOf } from '../alike/signature.ts';
import { once } from '../adapters/concurrency-limit.ts';
import type { MediaStore } from '../adapters/media-store.ts';
import { pdfPagePng, pdfPagesJpeg } from '../adapters/pdf.ts';
import { audioWaveform, convertAv, decodeImageWithFfmpeg, probeAv, videoPoster, webMp4 } from '../adapters/video.ts';
import type { DerivativeTable } from '../db/schema.ts';
import type { WorkBudget } from '../jobs/work-budget.ts';
import type { DerivativeRepository, DerivativeRow, DerivativeSource } from './derivative.repository.ts';
import type { ModelRenderer } from './model-renderer.ts';
import { Originals } from './source-file.ts';
import { derivativeFolder } from './storage.ts';
import { typeIconSvg } from './type-icon.ts';

/** The derivative kind of the small thumbnail (the thumbnail URL's `w=400`) and its file name. */
export const SMALL_THUMB = 'thumb_small';
const SMALL_THUMB_FILE = 'thumb-400.webp';

/** PDF pages rendered ahead of time; later pages are rendered when first asked for. */
const MAX_PAGE_PREVIEWS = 10;
/** Longest a page rendered on request may take (pdftoppm is stopped then). */
const PAGE_TIMEOUT_MS = 60_000;
/** How long a claim to render a page holds; past it (its process died) another process takes over. */
const PAGE_CLAIM_MS = PAGE_TIMEOUT_MS + 30_000;
/** How often a process waiting for another's page looks whether it is there. */
const PAGE_POLL_MS = 100;
/** A page that could not be rendered is not tried again for this long (each try costs a pdftoppm). */
const PAGE_FAILED_MS = 10 * 60_000;
const PAGE_FAILURES_KEPT = 10_000;

interface Log {
  warn(obj: object, msg: string): void;
}

/** A PDF page that could not be rendered (a damaged or changed file); the media route answers 415. */
export class PageRenderFailed extends Error {
  constructor(page: number) {
    super(`Page ${page} of this document could not be shown: the file may be damaged.`);
  }
}

/**
 * Files made from assets (thumbnails, previews, posters, page previews, web videos and sounds): made by the
 * derivative jobs (derivative.jobs.ts) and, for PDF pages past the first ten, on demand; found again
 * for the media route. Every method may run again for the same asset (after a crash or a retry), so
 * each checks what is already done.
 */
export class DerivativeService {
  /** Pages being rendered on request in this process, by asset and page. */
  private readonly pageRenders = new Map<string, Promise<DerivativeRow | undefined>>();
  /** Pages whose render failed lately, by asset, content and page, with when they may be tried again. */
  private readonly failedPages = new Map<string, number>();
  /** Small thumbnails being made on request in this process, by asset. */
  private readonly smallThumbs = new Map<number, Promise<DerivativeRow | undefined>>();

  constructor(
    private readonly repo: DerivativeRepository,
    /** Where the files go: DATA_DIR/derivatives or the object store (services.ts `mediaStores`). */
    private readonly store: MediaStore,
    private readonly models: ModelRenderer,
    private readonly work: WorkBudget,
    private readonly log: Log,
    /** Where the assets' originals are read: their folders, or the buckets they were imported from. */
    private readonly originals = new Originals(),
  ) {}

  /**
   * The picture that stands for an asset: the image itself, a video frame, a PDF page, a waveform, a
   * 3D view; `file` is a local file of its original. `own` tells a picture of the asset itself (one
   * a visual signature is made of) from a waveform or a type icon.
   */
  private async pictureOf(src: DerivativeSource, file: string): Promise<{ input: string | Buffer; own: boolean }> {
    switch (src.asset_group) {
      case 'image':
        return { input: file, own: true };
      case 'video':
        return { input: await videoPoster(file, src.duration), own: true };
      case 'audio':
        return { input: await audioWaveform(file), own: false };
      case 'document':
        return {
          input: await this.work.run('pdf_page', 'job', () => pdfPagePng(file, 1, PREVIEW_BOX.width)),
          own: true,
        };
      case '3d': {
        // A model the small renderer cannot (or may not) draw still gets a clear picture: the typed icon.
        const view = await this.work
          .run('model_view', 'job', () => this.models.render(file, src.format))
          .catch((err: unknown) => {
            this.log.warn({ assetId: src.id, error: (err as Error).message }, 'the 3D model could not be drawn');
            return undefined;
          });
        if (view?.kind === 'refused') {
          this.log.warn({ assetId: src.id, reason: view.reason }, 'the 3D model was not drawn');
        }
        return view?.kind === 'drawn'
          ? { input: view.png, own: true }
          : { input: Buffer.from(typeIconSvg('3d', src.format)), own: false };
      }
      default:
        return { input: Buffer.from(typeIconSvg('other', src.format)), own: false };
    }
  }

  /**
   * The asset if work for it is still wanted: not gone, its content the one the work was for, and
   * its file still inside its import folder.
   */
  private async current(assetId: number, sha256: string): Promise<DerivativeSource | undefined> {
    const src = await this.repo.source(assetId);
    if (!src || src.status !== 'active' || src.sha256 !== sha256) return undefined;
    return (await this.originals.usable(src)) ? src : undefined;
  }

  /**
   * Thumbnails (both widths) and preview of an asset, and page previews of a PDF up to
   * MAX_PAGE_PREVIEWS. An asset whose thumbnail and preview were made before small thumbnails were
   * gets its small one on first request (smallThumb), not a new import of its pictures.
   */
  async makePictures(assetId: number, sha256: string): Promise<void> {
    const src = await this.current(assetId, sha256);
    if (!src) return;
    const have = await this.repo.list(src.id);
    if (['thumb', 'preview'].every((k) => have.some((d) => d.kind === k && d.sha256 === src.sha256))) return;

    const rel = derivativeFolder(src.sha256);
    // One local file of the original for every tool below (a copy, when it is in a bucket).
    await this.originals.withLocalCopy(src, (file) => this.makePicturesOf(src, file, rel));
  }

  private async makePicturesOf(src: DerivativeSource, file: string, rel: string): Promise<void> {
    const out = {
      thumb: path.join(rel, 'thumb.webp'),
      thumbSmall: path.join(rel, SMALL_THUMB_FILE),
      preview: path.join(rel, 'preview.webp'),
    };
    let own = false;
    const made = await this.store.write([out.thumb, out.thumbSmall, out.preview], async ([thumb, small, preview]) => {
      const abs = { thumb: thumb, thumbSmall: small, preview: preview };
      try {
        const picture = await this.pictureOf(src, file);
        own = picture.own;
        return await makeImageDerivatives(picture.input, abs);
      } catch (err) {
        // Files the image library cannot read (BMP, TGA, some TIFF layouts) go through ffmpeg's decoders.
        if (src.asset_group !== 'image') throw err;
        const decoded = await decodeImageWithFfmpeg(file).catch(() => Promise.reject(err as Error));
        return makeImageDerivatives(decoded, abs);
      }
    });
    // Made from the preview's pixels while they were decoded, stored with the pictures (decision 0262).
    const signature = own ? signatureOf(made.signature) : null;
    const now = Date.now();
    const row = (
      kind: string,
      key: string,
      f: { width: number | null; height: number | null; bytes: number },
      page = 0,
      mime = 'image/webp',
    ) =>
      ({
        asset_id: src.id,
        kind,
        page,
        sha256: src.sha256,
        path: key,
        mime,
        width: f.width,
        height: f.height,
        bytes: f.bytes,
        placeholder: kind === 'thumb' ? made.placeholder : null,
        created_at: now,
      }) satisfies Insertable<DerivativeTable>;
    const rows = [
      row('thumb', out.thumb, made.thumb),
      row(SMALL_THUMB, out.thumbSmall, made.thumbSmall),
      row('preview', out.preview, made.preview),
    ];

    if (src.asset_group === 'document' && src.page_count) {
      rows.push(row('preview', out.preview, made.preview, 1));
      const last = Math.min(src.page_count, MAX_PAGE_PREVIEWS);
      if (last >= 2) {
        const pages = await this.work.run('pdf_page', 'job', () =>
          this.storePages(rel, (dir) => pdfPagesJpeg(file, 2, last, PREVIEW_BOX.width, dir)),
        );
        for (const [page, stored] of pages) {
          rows.push(row('preview', stored.key, { width: null, height: null, bytes: stored.bytes }, page, 'image/jpeg'));
        }
      }
    }
    await this.repo.replace(src.id, ['thumb', SMALL_THUMB, 'preview'], rows, { sha256: src.sha256, signature });
  }

  /**
   * The small thumbnail of an asset; for one imported before small thumbnails were made, made now
   * from its stored large thumbnail and kept. Undefined while the asset has no thumbnail. Making one
   * takes a `thumbnail` slot of the work budget as a request: anyone holding a signed URL may ask,
   * so a crowd waits briefly in a short line and is then refused with 429 `busy`; callers in this
   * process asking for the same asset share one making.
   */
  async smallThumb(assetId: number): Promise<DerivativeRow | undefined> {
    const [small, thumb] = await Promise.all([this.repo.find(assetId, SMALL_THUMB), this.repo.find(assetId, 'thumb')]);
    if (!thumb) return undefined;
    if (small?.sha256 === thumb.sha256) return small;
    return once(this.smallThumbs, assetId, () => this.shrinkOnce(thumb));
  }

  private async shrinkOnce(thumb: DerivativeRow): Promise<DerivativeRow | undefined> {
    const rel = path.join(path.dirname(thumb.path), SMALL_THUMB_FILE);
    const made = await this.work.run('thumbnail', 'request', () =>
      this.store.withLocalCopy(thumb.path, (large) => this.store.write([rel], ([tmp]) => shrinkThumbnail(large, tmp))),
    );
    // Should a new import have replaced the thumbnail meanwhile, the row written here names the old
    // content; the next request finds it stale and makes the small one again.
    await this.repo.replace(
      thumb.asset_id,
      [SMALL_THUMB],
      [
        {
          asset_id: thumb.asset_id,
          kind: SMALL_THUMB,
          page: 0,
          sha256: thumb.sha256,
          path: rel,
          mime: 'image/webp',
          width: made.width,
          height: made.height,
          bytes: made.bytes,
          placeholder: null,
          created_at: Date.now(),
        },
      ],
    );
    return this.repo.find(thumb.asset_id, SMALL_THUMB);
  }

  /** The web version of a video (H.264 MP4). */
  async makeWebVideo(assetId: number, sha256: string): Promise<void> {
    await this.makePlayable(assetId, sha256, { kind: 'video', file: 'video.mp4', mime: 'video/mp4' }, async (file) => {
      const probe = await probeAv(file);
      if (!probe.hasVideo) return undefined;
      return {
        width: probe.width === null ? null : Math.min(probe.width, 1280),
        write: (tmp) => webMp4(file, tmp, probe),
      };
    });
  }

  /**
   * What the player of a sound plays: AAC in MP4, so that people who may not download the original
   * (set 0) can still listen, and every browser plays it.
   */
  async makeWebAudio(assetId: number, sha256: string): Promise<void> {
    await this.makePlayable(assetId, sha256, { kind: 'audio', file: 'audio.m4a', mime: 'audio/mp4' }, (file) =>
      Promise.resolve({ width: null, write: (tmp) => convertAv(file, tmp, { format: 'm4a', keepMetadata: false }) }),
    );
  }

  /**
   * Makes the one file of `kind` a player streams, unless it exists for the asset's content; `plan`
   * reads a local file of the original.
   */
  private async makePlayable(
    assetId: number,
    sha256: string,
    out: { kind: 'video' | 'audio'; file: string; mime: string },
    plan: (file: string) => Promise<{ width: number | null; write: (tmp: string) => Promise<void> } | undefined>,
  ): Promise<void> {
    const src = await this.current(assetId, sha256);
    // Only sounds get a playable sound (a video's is in its web video).
    if (!src || (out.kind === 'audio' && src.asset_group !== 'audio')) return;
    const have = await this.repo.find(src.id, out.kind);
    if (have?.sha256 === src.sha256) return;
    const rel = path.join(derivativeFolder(src.sha256), out.file);
    const made = await this.originals.withLocalCopy(src, async (file) => {
      const planned = await plan(file);
      if (!planned) return undefined;
      const size = await this.store.write([rel], async ([tmp]) => {
        await planned.write(tmp);
        return stat(tmp);
      });
      return { width: planned.width, size };
    });
    if (!made) return;
    const { size } = made;
    await this.repo.replace(
      src.id,
      [out.kind],
      [
        {
          asset_id: src.id,
          kind: out.kind,
          page: 0,
          sha256: src.sha256,
          path: rel,
          mime: out.mime,
          width: made.width,
          height: null,
          bytes: size.size,
          placeholder: null,
          created_at: Date.now(),
        },
      ],
    );
  }

  /**
   * A PDF page beyond those made ahead of time, rendered when it is first asked for (the portal pages
   * through a document one page at a time). Answers undefined when the asset has no such page. A page
   * is rendered once however many ask for it at once: callers in this process share one render, and
   * a process that finds another rendering it (a claim row) waits for that one's file. Renders take a
   * `pdf_page` slot of the work budget; a caller who finds them all taken gets 429 `busy`.
   */
  async renderPage(assetId: number, page: number): Promise<DerivativeRow | undefined> {
    const src = await this.repo.source(assetId);
    if (!src || src.status !== 'active' || src.asset_group !== 'document' || page > (src.page_count ?? 0))
      return undefined;
    if (!(await this.originals.usable(src))) return undefined;
    const key = `${src.id}:${page}`;
    if ((this.failedPages.get(`${key}:${src.sha256}`) ?? 0) > Date.now()) throw new PageRenderFailed(page);
    return once(this.pageRenders, key, () => this.pageOnce(src, page));
  }

  private async pageOnce(src: DerivativeSource, page: number): Promise<DerivativeRow | undefined> {
    const claim = { assetId: src.id, kind: 'preview', page };
    for (;;) {
      const made = await this.repo.find(src.id, 'preview', page);
      if (made) return made;
      if (await this.repo.claim(claim, this.work.holder, Date.now(), PAGE_CLAIM_MS)) break;
      await new Promise((r) => setTimeout(r, PAGE_POLL_MS));
    }
    try {
      // Another process may have finished between our look and our claim.
      const made = await this.repo.find(src.id, 'preview', page);
      if (made) return made;
      const file = await this.work.run('pdf_page', 'request', async () => {
        try {
          const pages = await this.originals.withLocalCopy(src, (file) =>
            this.storePages(derivativeFolder(src.sha256), (dir) =>
              pdfPagesJpeg(file, page, page, PREVIEW_BOX.width, dir, PAGE_TIMEOUT_MS),
            ),
          );
          return pages.get(page);
        } catch (err) {
          // The tool's message names server paths: it goes to the log, not to the caller.
          this.log.warn({ asset: src.id, page, error: (err as Error).message }, 'a PDF page could not be rendered');
          if (this.failedPages.size >= PAGE_FAILURES_KEPT) this.failedPages.clear();
          this.failedPages.set(`${src.id}:${page}:${src.sha256}`, Date.now() + PAGE_FAILED_MS);
          throw new PageRenderFailed(page);
        }
      });
      if (!file) return undefined;
      await this.repo.add({
        asset_id: src.id,
        kind: 'preview',
        page,
        sha256: src.sha256,
        path: file.key,
        mime: 'image/jpeg',
        width: null,
        height: null,
        bytes: file.bytes,
        placeholder: null,
        created_at: Date.now(),
      });
      return await this.repo.find(src.id, 'preview', page);
    } finally {
      await this.repo.unclaim(claim, this.work.holder);
    }
  }

  async find(assetId: number, kind: string, page = 0): Promise<DerivativeRow | undefined> {
    return this.repo.find(assetId, kind, page);
  }

  /** The asset a derivative is made from (for the placeholder of one not made yet). */
  async source(assetId: number): Promise<DerivativeSource | undefined> {
    return this.repo.source(assetId);
  }

  /**
   * A derivative's file to send: its size (undefined when the file is not in the store) and a way to
   * read it or a part of it.
   */
  async body(row: DerivativeRow): Promise<StoredBody | undefined> {
    const info = await this.store.stat(row.path);
    if (!info) return undefined;
    return { size: info.size, open: async (range) => (await this.store.open(row.path, range)).stream };
  }

  /** A URL of the store itself that answers a derivative's file, when the store hands them out. */
  async presignedUrl(row: DerivativeRow, seconds: number, cacheControl: string): Promise<string | undefined> {
    return this.store.presign?.(row.path, seconds, { type: row.mime, cacheControl });
  }

  /**
   * Renders pages with `render` into a local folder of its own, then puts them into the store under
   * `folder` (one write: all pages appear, or none); answers their keys and sizes by page.
   */
  private async storePages(
    folder: string,
    render: (dir: string) => Promise<Map<number, string>>,
  ): Promise<Map<number, { key: string; bytes: number }>> {
    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-pages-'));
    try {
      const rendered = [...(await render(dir))];
      const keys = rendered.map(([, file]) => path.join(folder, path.basename(file)));
      const sizes = await this.store.write(keys, (scratch) =>
        Promise.all(
          rendered.map(async ([, file], i) => {
            await copyFile(file, scratch[i] ?? '');
            return (await stat(file)).size;
          }),
        ),
      );
      return new Map(rendered.map(([page], i) => [page, { key: keys[i] ?? '', bytes: sizes[i] ?? 0 }]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** A stored file to send (http/send-file.ts reads it). */
export interface StoredBody {
  size: number;
  open(range?: { start: number; end: number }): Promise<Readable>;
}
