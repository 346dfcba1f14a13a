import type { JobHandler } from '../jobs/job.worker.ts';
import { DomainError } from '../http/errors.ts';
import type { ConversionSet } from '../settings.ts';
import type { ConversionCache } from './conversion-cache.ts';
import type { DownloadRepository } from './download.repository.ts';

export const EAGER_CONVERSIONS_JOB = 'eager-conversions';

interface EagerPayload {
  assetId: number;
  sha256: string;
}

/** The kinds of asset each output format can be made from (conversion-cache.ts `make`). */
const madeFrom: Record<ConversionSet['format'], readonly string[]> = {
  jpeg: ['image', 'document'],
  png: ['image', 'document'],
  webp: ['image', 'document'],
  tiff: ['image', 'document'],
  avif: ['image', 'document'],
  // A PDF is passed through as it is: nothing to make ahead.
  pdf: [],
  mp4: ['video'],
  m4a: ['video', 'audio'],
};

/** The sets marked `eager` that apply to, and can be made from, an asset of `assetGroup`. */
export function eagerSetsFor(sets: readonly ConversionSet[], assetGroup: string): ConversionSet[] {
  return sets.filter(
    (s) =>
      s.eager &&
      (s.assetGroups.length === 0 || s.assetGroups.some((g) => g === assetGroup)) &&
      madeFrom[s.format].includes(assetGroup),
  );
}

function parsePayload(p: unknown): EagerPayload {
  const o = p as Partial<EagerPayload> | null;
  if (!o || typeof o.assetId !== 'number' || typeof o.sha256 !== 'string') throw new Error('bad eager payload');
  return { assetId: o.assetId, sha256: o.sha256 };
}

/**
 * Makes an imported asset's eager sets, as background work (the open share of the conversion pool,
 * waiting as long as it takes). Idempotent: a set already made is found in the cache. An asset
 * whose file changed since has a job of its own for the new content; this one does nothing.
 */
export function eagerConversionsJobHandler(
  cache: ConversionCache,
  downloads: DownloadRepository,
  sets: readonly ConversionSet[],
  log: { warn(obj: object, msg: string): void },
): JobHandler {
  const handler: JobHandler<EagerPayload> = {
    name: EAGER_CONVERSIONS_JOB,
    parse: parsePayload,
    run: async (p) => {
      const [src] = await downloads.sources([p.assetId]);
      if (!src || src.sha256 !== p.sha256) return;
      for (const set of eagerSetsFor(sets, src.asset_group)) {
        try {
          await cache.file(src, set, { job: true });
        } catch (err) {
          // A file no tool can read fails the same way on every try; the cache logged why.
          if (!(err instanceof DomainError && err.id === 'unsupported_media_type')) throw err;
          log.warn({ asset: src.id, set: set.id }, 'an eager conversion could not be made');
        }
      }
    },
  };
  return handler as JobHandler;
}
