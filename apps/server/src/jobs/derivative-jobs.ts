import path from 'node:path';

export const DERIVATIVES_JOB = 'derivatives';
export const WEB_VIDEO_JOB = 'web-video';
/** PDF pages rendered ahead of time; later pages are rendered when first asked for. */
export const MAX_PAGE_PREVIEWS = 10;

export interface DerivativePayload {
  assetId: number;
  sha256: string;
}

/** The jobs an imported asset needs, keyed by its content so that a changed file gets new ones. */
export function derivativeJobsFor(asset: { id: number; sha256: string; asset_group: string }) {
  const payload: DerivativePayload = { assetId: asset.id, sha256: asset.sha256 };
  const jobs = [{ name: DERIVATIVES_JOB, key: `${DERIVATIVES_JOB}:${asset.id}:${asset.sha256}`, payload }];
  if (asset.asset_group === 'video') {
    jobs.push({ name: WEB_VIDEO_JOB, key: `${WEB_VIDEO_JOB}:${asset.id}:${asset.sha256}`, payload });
  }
  return jobs;
}

/** Where derivatives live: DATA_DIR/derivatives/<sha[0..2]>/<sha>/…, shared by identical files. */
export function derivativeRoot(dataDir: string): string {
  return path.join(dataDir, 'derivatives');
}
export const derivativeFolder = (sha: string) => path.join(sha.slice(0, 2), sha);
