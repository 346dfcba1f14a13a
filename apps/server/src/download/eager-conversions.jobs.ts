import { EAGER_CONVERSIONS_JOB, eagerSetsFor } from '../derivatives/derivative.jobs.ts';
import { DomainError } from '../http/errors.ts';
import type { JobHandler } from '../jobs/job.worker.ts';
import type { ConversionSet } from '../settings.ts';
import type { ConversionCache } from './conversion-cache.ts';
import type { DownloadRepository } from './download.repository.ts';

interface EagerPayload {
  assetId: number;
  sha256: string;
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
  return handler;
}
