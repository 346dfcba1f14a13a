import type { JobHandler } from '../jobs/job.worker.ts';
import type { ConversionSet } from '../settings.ts';
import type { DerivativeService } from './derivative.service.ts';

export const DERIVATIVES_JOB = 'derivatives';
export const WEB_VIDEO_JOB = 'web-video';
export const WEB_AUDIO_JOB = 'web-audio';
/** Conversion sets marked `eager`, made at import (download/eager-conversions.jobs.ts runs it). */
export const EAGER_CONVERSIONS_JOB = 'eager-conversions';
/** Every job that makes derivatives, or conversions ahead of time (removed with the catalogue). */
export const DERIVATIVE_JOBS = [DERIVATIVES_JOB, WEB_VIDEO_JOB, WEB_AUDIO_JOB, EAGER_CONVERSIONS_JOB];

interface DerivativePayload {
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

/**
 * The jobs an imported asset needs, keyed by its content so that a changed file gets new ones; with
 * the conversion sets, also the making of those marked `eager` that apply to it.
 */
export function derivativeJobsFor(
  asset: { id: number; sha256: string; asset_group: string },
  sets: readonly ConversionSet[] = [],
) {
  const payload: DerivativePayload = { assetId: asset.id, sha256: asset.sha256 };
  const jobs = [{ name: DERIVATIVES_JOB, key: `${DERIVATIVES_JOB}:${asset.id}:${asset.sha256}`, payload }];
  if (asset.asset_group === 'video') {
    jobs.push({ name: WEB_VIDEO_JOB, key: `${WEB_VIDEO_JOB}:${asset.id}:${asset.sha256}`, payload });
  }
  if (asset.asset_group === 'audio') {
    jobs.push({ name: WEB_AUDIO_JOB, key: `${WEB_AUDIO_JOB}:${asset.id}:${asset.sha256}`, payload });
  }
  if (eagerSetsFor(sets, asset.asset_group).length > 0) {
    jobs.push({ name: EAGER_CONVERSIONS_JOB, key: `${EAGER_CONVERSIONS_JOB}:${asset.id}:${asset.sha256}`, payload });
  }
  return jobs;
}

function parsePayload(p: unknown): DerivativePayload {
  const o = p as Partial<DerivativePayload> | null;
  if (!o || typeof o.assetId !== 'number' || typeof o.sha256 !== 'string') throw new Error('bad derivative payload');
  return { assetId: o.assetId, sha256: o.sha256 };
}

/** The job handlers that make derivatives, for the job worker every process runs. */
export function derivativeJobHandlers(derivatives: DerivativeService): JobHandler[] {
  const pictures: JobHandler<DerivativePayload> = {
    name: DERIVATIVES_JOB,
    parse: parsePayload,
    run: (p) => derivatives.makePictures(p.assetId, p.sha256),
  };
  const webVideo: JobHandler<DerivativePayload> = {
    name: WEB_VIDEO_JOB,
    parse: parsePayload,
    run: (p) => derivatives.makeWebVideo(p.assetId, p.sha256),
  };
  const webAudio: JobHandler<DerivativePayload> = {
    name: WEB_AUDIO_JOB,
    parse: parsePayload,
    run: (p) => derivatives.makeWebAudio(p.assetId, p.sha256),
  };
  return [pictures, webVideo, webAudio] as JobHandler[];
}
