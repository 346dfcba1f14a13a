import { z } from 'zod';
import { defineCall, queryInt } from './call.ts';

/**
 * Statistics of the portal's use (docs/security.md "Statistics"): searches, asset page views,
 * downloads, zips, share-link openings and logins, counted per day (UTC) and audience (guests or
 * accounts). Nothing recorded names a person or an address: the admin sees counts, never who.
 * Days before today come from the daily counts a job keeps; today's from the events themselves.
 */

const assetId = z.string().regex(/^[1-9]\d{0,15}$/, 'an asset id');
const isoDay = z.iso.date().describe('A day, YYYY-MM-DD (UTC)');

/** The periods the admin screen offers; `from`/`to` name any other. */
export const INSIGHT_PERIODS = [7, 30, 90, 365] as const;
/** The longest period one answer covers (days). */
export const MAX_INSIGHT_DAYS = 366;

export const insightAudienceSchema = z.enum(['all', 'guests', 'accounts']);
export type InsightAudience = z.infer<typeof insightAudienceSchema>;

export const insightsQuerySchema = z.object({
  from: isoDay.optional().describe('First day of the period; with `to` (default today), instead of `days`'),
  to: isoDay.optional().describe('Last day of the period (default today)'),
  days: z.coerce
    .number()
    .int()
    .refine((d) => (INSIGHT_PERIODS as readonly number[]).includes(d), {
      message: `must be one of ${INSIGHT_PERIODS.join(', ')}`,
    })
    .optional()
    .describe('The period: the last 7, 30, 90 or 365 days, today included (default 30)'),
  audience: insightAudienceSchema.default('all').describe('Whose use: everyone, guests (no account) or accounts'),
  limit: queryInt(1, 100).default(20).describe('Rows of each top list'),
});
export type InsightsQuery = z.input<typeof insightsQuerySchema>;

const count = z.number().int().min(0);

export const insightDaySchema = z.object({
  day: isoDay,
  searches: count,
  searchesWithoutResults: count,
  views: count.describe('Asset pages opened'),
  downloads: count.describe('Files delivered, single or in zips'),
  zips: count.describe('Zips delivered'),
  shareOpens: count.describe('Share links opened'),
  logins: count.describe('Successful logins, native and single sign-on'),
  failedLogins: count,
});
export type InsightDay = z.infer<typeof insightDaySchema>;

export const insightAssetSchema = z.object({
  id: assetId,
  title: z.string().nullable().describe('null: the asset is gone, or the admin may not see it'),
  count,
});
export const insightSearchSchema = z.object({
  text: z.string().describe("The search's text, trimmed, lower-cased, spaces collapsed; '*' for all assets"),
  count,
});

export const insightsAnswerSchema = z.object({
  from: isoDay,
  to: isoDay,
  audience: insightAudienceSchema,
  days: z.array(insightDaySchema).describe('Every day of the period, oldest first (days without use count 0)'),
  totals: insightDaySchema.omit({ day: true }),
  logins: z
    .array(z.object({ method: z.enum(['native', 'sso']), ok: count, failed: count }))
    .describe('Logins by method'),
  downloadsBySet: z
    .array(z.object({ csetId: z.number().int(), title: z.string(), count }))
    .describe('Files delivered per conversion set (0: the original file), most first'),
  topDownloaded: z.array(insightAssetSchema),
  topViewed: z.array(insightAssetSchema),
  topSearches: z.array(insightSearchSchema),
  searchesWithoutResults: z.array(insightSearchSchema).describe('Searches that found nothing, most asked first'),
  facets: z.array(z.object({ key: z.string(), count })).describe('Facets searches were narrowed by, most used first'),
  collections: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        views: count.describe('Times the collection was opened'),
        downloads: count.describe('Files of its assets delivered'),
      }),
    )
    .describe('DAM collections by views and downloads, most used first'),
});
export type InsightsAnswer = z.infer<typeof insightsAnswerSchema>;

export const insightsCall = defineCall({
  method: 'GET',
  path: 'admin/insights',
  summary:
    "The portal's use in a period: per-day series, downloads by set, top assets, searches and collections (admins)",
  query: insightsQuerySchema,
  response: insightsAnswerSchema,
});

export const insightViewCall = defineCall({
  method: 'POST',
  path: 'insights/view',
  summary: "Counts a view of an asset's page (the asset page sends it once per opening)",
  body: z.strictObject({ id: assetId }),
  response: z.object({ ok: z.literal(true) }),
});
