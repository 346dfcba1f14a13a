import path from 'node:path';

/** Where derivatives live: DATA_DIR/derivatives/<sha[0..2]>/<sha>/…, shared by identical files. */
export function derivativeRoot(dataDir: string): string {
  return path.join(dataDir, 'derivatives');
}

export const derivativeFolder = (sha: string) => path.join(sha.slice(0, 2), sha);
