import { z } from 'zod';
import { defineCall } from './call.ts';
import { SHARE_PASSWORD_MIN_LENGTH } from './endpoints.ts';
import { convertSetSchema, sessionSchema } from './session.ts';

/**
 * Share links (docs/security.md "Share links"): a user whose group may share grants people without
 * an account a view of chosen assets, with an optional expiry, password and download permission.
 * The link's token is shown once, when the link is made; the server keeps only its hash.
 */

const assetId = z.string().regex(/^[1-9]\d{0,15}$/, 'an asset id');
const isoDate = z.iso.datetime({ offset: true });

/** `inactive`: the link's creator no longer has the right to share (or the account is disabled); it works again if they regain it. */
export const shareStateSchema = z.enum(['active', 'expired', 'revoked', 'inactive']);
export type ShareState = z.infer<typeof shareStateSchema>;

export const shareLinkSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  assetIds: z.array(z.string()),
  createdAt: isoDate,
  expiresAt: isoDate.nullable(),
  revokedAt: isoDate.nullable(),
  hasPassword: z.boolean(),
  downloadSets: z.array(z.number().int()).describe('Conversion sets a visitor may download in; none: view only'),
  views: z.number().int().describe('How often the link was opened'),
  downloads: z.number().int().describe('Files downloaded through the link'),
  state: shareStateSchema,
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const createShareBodySchema = z.strictObject({
  assetIds: z.array(assetId).min(1).max(10_000),
  title: z.string().trim().max(200).optional(),
  expiresAt: isoDate
    .optional()
    .describe('The link stops working at this moment: at most maxDays (share/settings) ahead; none: maxDays ahead'),
  password: z
    .string()
    .min(SHARE_PASSWORD_MIN_LENGTH, `at least ${SHARE_PASSWORD_MIN_LENGTH} characters`)
    .max(1024)
    .optional(),
  downloadSets: z.array(z.number().int().min(0)).max(100).default([]),
});
export type CreateShareBody = z.input<typeof createShareBodySchema>;

export const createShareCall = defineCall({
  method: 'POST',
  path: 'share/create',
  summary: 'Create a share link for assets the caller may see',
  body: createShareBodySchema,
  response: z.object({
    share: shareLinkSchema,
    token: z.string().describe('The secret part of the link (#/share/{token}); it is not shown again'),
  }),
});

export const listSharesCall = defineCall({
  method: 'GET',
  path: 'share/list',
  summary: "The caller's share links, newest first",
  response: z.object({ shares: z.array(shareLinkSchema) }),
});

export const revokeShareCall = defineCall({
  method: 'POST',
  path: 'share/revoke',
  summary: 'Revoke one of the caller’s share links: it and every media URL handed out through it stop working',
  body: z.strictObject({ id: z.number().int().min(1) }),
  response: z.object({ share: shareLinkSchema }),
});

/** What the visitor of a share link is shown about it. */
export const shareVisitSchema = z.object({
  title: z.string(),
  assetIds: z.array(z.string()),
  downloadSets: z.array(z.number().int()),
  expiresAt: isoDate.nullable(),
});
export type ShareVisit = z.infer<typeof shareVisitSchema>;

export const openShareCall = defineCall({
  method: 'POST',
  path: 'share/open',
  summary: 'Open a share link: a session limited to its assets',
  body: z.strictObject({ token: z.string().min(20).max(100), password: z.string().max(1024).optional() }),
  response: z.object({ session: sessionSchema, share: shareVisitSchema }),
});

export const currentShareCall = defineCall({
  method: 'GET',
  path: 'share/current',
  summary: 'The share link the caller’s session was opened with',
  response: shareVisitSchema,
});

export const shareSettingsCall = defineCall({
  method: 'GET',
  path: 'share/settings',
  summary: 'Whether the caller may create share links, and the conversion sets a link may allow',
  response: z.object({
    mayCreate: z.boolean(),
    maxAssets: z.number().int(),
    maxDays: z
      .number()
      .int()
      .describe('The longest a link may live, in days; a link without an expiry lives this long'),
    downloadSets: z.array(convertSetSchema).describe('The sets the caller may download in, which a link may allow'),
  }),
});
