import type { MediaFile } from '@vitrine/contract/paths';
import type { AccessService } from '../access/access.service.ts';
import { PageRenderFailed, type DerivativeService } from '../derivatives/derivative.service.ts';
import { typeIconSvg } from '../derivatives/type-icon.ts';
import { forbidden, notFound, notYetAvailable, unsupportedMediaType } from '../http/errors.ts';

export type MediaKind = 'thumb' | 'preview' | 'video' | 'audio';

export interface MediaRequest {
  kind: MediaKind;
  id: string;
  page?: string;
  exp?: string;
  sig?: string;
  /** The share link the URL was minted for. */
  share?: string;
}

export type MediaAnswer =
  { type: 'file'; path: string; mime: string; etag: string } | { type: 'placeholder'; svg: string };

/**
 * Files behind signed media URLs. The signature is the permission: AccessService signs a URL only
 * for an asset the caller may see, and checks it here; whoever got the URL may load it until it
 * expires, without an auth header.
 */
export class MediaService {
  constructor(
    private readonly access: AccessService,
    private readonly derivatives: DerivativeService,
  ) {}

  async resolve(input: MediaRequest): Promise<MediaAnswer> {
    const file: MediaFile =
      input.kind === 'preview'
        ? { kind: 'preview', id: input.id, page: input.page }
        : { kind: input.kind, id: input.id };
    const check = await this.access.verifyMediaUrl(file, { share: input.share }, input.exp, input.sig);
    if (check === 'invalid') throw forbidden('This media link is not valid.');
    if (check === 'expired') throw forbidden('This media link has expired; reload the page to get a new one.');
    if (check === 'revoked') throw forbidden('The share link this media link came from was revoked or has expired.');
    if (!/^\d+$/.test(input.id) || (input.page !== undefined && !/^[1-9]\d*$/.test(input.page))) {
      throw notFound('The media file');
    }
    const assetId = Number(input.id);
    const page = input.page === undefined ? 0 : Number(input.page);
    let d = await this.derivatives.find(assetId, input.kind, page);
    if (!d && input.kind === 'preview' && page > 0) {
      d = await this.derivatives.renderPage(assetId, page).catch((err: unknown) => {
        throw err instanceof PageRenderFailed ? unsupportedMediaType(err.message) : err;
      });
    }
    if (d) {
      return {
        type: 'file',
        path: this.derivatives.filePath(d),
        mime: d.mime,
        etag: `"${d.sha256.slice(0, 16)}-${d.kind}-${d.page}"`,
      };
    }
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
}
