import { thumbWidths, WIDTH_PARAM, type MediaFile, type ThumbWidth } from '@vitrine/contract/paths';
import type { AccessService } from '../access/access.service.ts';
import { PageRenderFailed, type DerivativeService } from '../derivatives/derivative.service.ts';
import type { DerivativeRow } from '../derivatives/derivative.repository.ts';
import { typeIconSvg } from '../derivatives/type-icon.ts';
import { isBusy, notFound, notYetAvailable, unsupportedMediaType, validation } from '../http/errors.ts';
import type { FileBody } from '../http/send-file.ts';

export type MediaKind = 'thumb' | 'preview' | 'video' | 'audio';

export interface MediaRequest {
  kind: MediaKind;
  id: string;
  page?: string;
  exp?: string;
  sig?: string;
  /** The share link the URL was minted for. */
  share?: string;
  /** The width of a thumbnail (thumbWidths); without it the large one. */
  w?: string;
}

export type MediaAnswer =
  | {
      type: 'file';
      body: FileBody;
      mime: string;
      etag: string;
      /** A stand-in for the file asked for (made later): cached this long at most. */
      maxSeconds?: number;
    }
  /** The file is answered by the store itself (S3_PRESIGN_SECONDS): a redirect to a URL it signed. */
  | { type: 'redirect'; url: string; maxSeconds?: number }
  | { type: 'placeholder'; svg: string };

/** How long the large thumbnail standing in for a small one not made yet may be cached. */
const STAND_IN_SECONDS = 60;

/**
 * The width a thumbnail URL asks for. The width is not covered by the signature: the signature
 * grants the asset's thumbnail, and `w` only picks one of two fixed sizes of that same picture, both
 * made once and kept, so a changed `w` gains a caller nothing the URL did not already give.
 */
function thumbWidth(w: string | undefined): ThumbWidth {
  if (w === undefined) return 800;
  const width = thumbWidths.find((t) => String(t) === w);
  if (width === undefined) {
    const allowed = thumbWidths.join(' or ');
    throw validation(`A thumbnail is ${allowed} pixels wide, not '${w}'.`, [
      { path: `query.${WIDTH_PARAM}`, message: `must be ${allowed}` },
    ]);
  }
  return width;
}

/**
 * Files behind signed media URLs. The signature is the permission: AccessService signs a URL only
 * for an asset the caller may see, and checks it here; whoever got the URL may load it until it
 * expires, without an auth header.
 */
export class MediaService {
  constructor(
    private readonly access: AccessService,
    private readonly derivatives: DerivativeService,
    /** Above 0 (and on a store that signs its own URLs): files are answered by a redirect signed this long. */
    private readonly presignSeconds = 0,
  ) {}

  async resolve(input: MediaRequest): Promise<MediaAnswer> {
    const file: MediaFile =
      input.kind === 'preview'
        ? { kind: 'preview', id: input.id, page: input.page }
        : { kind: input.kind, id: input.id };
    await this.access.requireMediaUrl(file, { share: input.share }, input.exp, input.sig);
    if (!/^\d+$/.test(input.id) || (input.page !== undefined && !/^[1-9]\d*$/.test(input.page))) {
      throw notFound('The media file');
    }
    const assetId = Number(input.id);
    const page = input.page === undefined ? 0 : Number(input.page);
    const scope = input.share === undefined ? 'public' : 'private';
    if (input.kind === 'thumb' && thumbWidth(input.w) === 400) {
      const small = await this.smallThumb(assetId, scope);
      if (small) return small;
    }
    let d = await this.derivatives.find(assetId, input.kind, page);
    if (!d && input.kind === 'preview' && page > 0) {
      d = await this.derivatives.renderPage(assetId, page).catch((err: unknown) => {
        throw err instanceof PageRenderFailed ? unsupportedMediaType(err.message) : err;
      });
    }
    if (d) return this.fileOf(d, scope);
    const asset = await this.derivatives.source(assetId);
    if (!asset) throw notFound('The asset');
    if (input.kind === 'video') {
      throw notYetAvailable('The web version of this video is not made yet; try again in a moment.');
    }
    if (input.kind === 'audio') {
      throw notYetAvailable('The playable version of this sound is not made yet; try again in a moment.');
    }
    // Not made yet (or cannot be): a clear picture of the asset's type, never a broken image.
    return { type: 'placeholder', svg: typeIconSvg(asset.asset_group, asset.format) };
  }

  /**
   * The small thumbnail, made now when the asset has none yet. When the server is too busy to make
   * it, the large one stands in for a minute rather than a broken picture.
   */
  private async smallThumb(assetId: number, scope: 'public' | 'private'): Promise<MediaAnswer | undefined> {
    try {
      const small = await this.derivatives.smallThumb(assetId);
      return small && (await this.fileOf(small, scope));
    } catch (err) {
      if (!isBusy(err)) throw err;
      const large = await this.derivatives.find(assetId, 'thumb');
      return large && { ...(await this.fileOf(large, scope)), maxSeconds: STAND_IN_SECONDS };
    }
  }

  private async fileOf(
    d: DerivativeRow,
    scope: 'public' | 'private',
  ): Promise<MediaAnswer & { type: 'file' | 'redirect' }> {
    if (this.presignSeconds > 0) {
      // The store's URL is cached no longer than it is sure to be valid (half its lifetime).
      const cacheControl = `${scope}, max-age=${Math.floor(this.presignSeconds / 2)}`;
      const url = await this.derivatives.presignedUrl(d, this.presignSeconds, cacheControl);
      if (url) return { type: 'redirect', url };
    }
    const body = await this.derivatives.body(d);
    // Its row without its file: gone from the store (removed by hand, a store that was changed).
    if (!body) throw notFound('The media file');
    return {
      type: 'file',
      body,
      mime: d.mime,
      etag: `"${d.sha256.slice(0, 16)}-${d.kind}-${d.page}"`,
    };
  }
}
