// The work budget of the settings file (`work`): the slots of each kind of expensive work, how long
// requests wait for one, and the conversion pool's fair use. settings.ts composes it into the file's schema.
import { z } from 'zod';

/** Kinds of expensive work that run through the work budget (jobs/work-budget.ts). */
export const workKinds = ['convert', 'pdf_page', 'model_view', 'checksum', 'thumbnail'] as const;
export type WorkKind = (typeof workKinds)[number];

/**
 * Slots of one kind of work, sized for 2 cores: a conversion (ffmpeg uses several threads) or a 3D
 * rasterising fills a core, so one per process and two in all; page renders and checksums are short
 * and wait on the disk as much as on a core; derivatives of an import are background work.
 */
const defaultPools: Record<WorkKind, { perProcess: number; total: number }> = {
  convert: { perProcess: 1, total: 2 },
  pdf_page: { perProcess: 2, total: 4 },
  model_view: { perProcess: 1, total: 2 },
  checksum: { perProcess: 2, total: 4 },
  thumbnail: { perProcess: 2, total: 2 },
};
const poolSchema = (kind: WorkKind) =>
  z
    .object({
      perProcess: z.number().int().min(1).max(64).describe('Works of this kind one process runs at once'),
      total: z.number().int().min(1).max(256).describe('Works of this kind all processes together run at once'),
    })
    .strict()
    .default(defaultPools[kind]);
/**
 * Fair use of the conversion pool (issue #48): a guest's request must not hold every converter, so
 * part of the pool is kept for account holders, and guests (share-link visitors too) may not start
 * conversions of long or large originals.
 */
const conversionFairnessSchema = z
  .object({
    accountShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        'Share of work.convert.total kept for callers with an account (rounded, at least one slot when above 0); ' +
          'guests, share-link visitors and background jobs use only the rest (0: no slot kept)',
      ),
    guestMaxMinutes: z
      .number()
      .positive()
      .default(10)
      .describe('Callers without an account may not have video or audio longer than this converted (403 too_long)'),
    guestMaxGB: z
      .number()
      .positive()
      .default(2)
      .describe('Callers without an account may not have originals larger than this converted (403 too_long)'),
  })
  .strict()
  .prefault({});
export type ConversionFairness = z.infer<typeof conversionFairnessSchema>;

export const workSchema = z
  .object({
    convert: poolSchema('convert'),
    pdf_page: poolSchema('pdf_page'),
    model_view: poolSchema('model_view'),
    checksum: poolSchema('checksum'),
    thumbnail: poolSchema('thumbnail'),
    queue: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(8)
      .describe('Requests of one kind that may wait in one process for a slot; more get 429 busy'),
    waitSeconds: z
      .number()
      .positive()
      .max(300)
      .default(10)
      .describe('Longest a request waits for a slot before it gets 429 busy'),
    conversions: conversionFairnessSchema,
  })
  .strict()
  .prefault({});
export type WorkSettings = z.infer<typeof workSchema>;
