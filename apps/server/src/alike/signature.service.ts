import { signaturePixelsOf } from '../adapters/media.ts';
import type { MediaStore } from '../adapters/media-store.ts';
import { signatureOf } from './signature.ts';
import type { SignatureRepository } from './signature.repository.ts';

/** Assets read per query while signatures are made for those without one. */
const BATCH = 200;

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Visual signatures of assets imported before signatures were (or with an older SIGNATURE_VERSION):
 * made from each asset's smallest stored picture, so that no original is read again and nothing is
 * re-imported. An operator's step of `vitrine import`, so it has no caller to check. Assets whose
 * pictures are made from now on get theirs with them (derivative.service.ts).
 */
export class SignatureBackfill {
  constructor(
    private readonly repo: SignatureRepository,
    /** Where the derivatives are kept. */
    private readonly store: MediaStore,
    private readonly log: Log,
  ) {}

  /** How many assets lack a signature of their current content. */
  async pending(): Promise<number> {
    return this.repo.countUnsigned();
  }

  /**
   * Signs every asset that lacks a signature; `onProgress` after each. An asset whose picture cannot
   * be read is logged and left for the next run. Answers how many were signed and how many failed.
   */
  async run(onProgress?: (done: number) => void): Promise<{ signed: number; failed: number }> {
    let after = 0;
    let signed = 0;
    let failed = 0;
    for (;;) {
      const batch = await this.repo.unsigned(after, BATCH);
      if (batch.length === 0) return { signed, failed };
      for (const a of batch) {
        after = a.id;
        try {
          const size = a.width && a.height ? { width: a.width, height: a.height } : undefined;
          const pixels = await this.store.withLocalCopy(a.path, (file) => signaturePixelsOf(file, size));
          await this.repo.save(a.id, a.sha256, signatureOf(pixels));
          signed++;
        } catch (err) {
          failed++;
          this.log.warn(
            { assetId: a.id, error: (err as Error).message },
            'no visual signature: its picture cannot be read',
          );
        }
        onProgress?.(signed + failed);
      }
    }
  }
}
