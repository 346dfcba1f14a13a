import { z } from 'zod';

/** Statistics of use (docs/security.md "Statistics"): whether they are recorded and how long events are kept. */
export const insightsSettingSchema = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe('Record searches, views, downloads, share-link openings and logins for the Statistics section'),
    keepDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .default(30)
      .describe('Days the single events are kept; the counts per day made from them are kept without end'),
  })
  .strict()
  .prefault({});
export type InsightsSettings = z.infer<typeof insightsSettingSchema>;
