import { z } from 'zod';
import { defineCall } from './call.ts';
import { languageCode } from './formats.ts';

export const loginMethodSchema = z.object({
  name: z.string().describe('native, saml, oidc, …'),
  url: z.string(),
});

export const sessionSchema = z.object({
  user: z.string().nullable().describe('null means guest'),
  isAssetUser: z.boolean(),
  isGuiAdmin: z.boolean(),
  isEditor: z
    .boolean()
    .optional()
    .describe('An editor uploads and edits assets (edit/*, upload/files); absent means no'),
  workspace: z.string().nullable(),
  session: z.string().nullable().describe('The session token, sent back as Authorization header'),
  login: z.array(loginMethodSchema),
  shareVisit: z
    .boolean()
    .optional()
    .describe('true for the session of a share link: it sees only the link’s assets (share/current tells which)'),
});
export type Session = z.infer<typeof sessionSchema>;

export const getSessionCall = defineCall({
  method: 'POST',
  path: 'session/get',
  summary: 'Log in with credentials or a single sign-on code, reuse a session, or open a guest session',
  // Strict: a body with other keys (`name`, `password`) must not quietly open a guest session.
  body: z
    .strictObject({
      user: z.string().max(256),
      pass: z.string().max(1024),
      code: z.string().min(1).max(512).describe('The one-time code a single sign-on login sent the browser back with'),
    })
    .partial()
    .refine((b) => Boolean(b.user) === Boolean(b.pass), {
      message: 'user and pass go together: give both to log in, or neither to reuse the session',
      path: ['pass'],
    })
    .refine((b) => !(b.code && b.user), { message: 'give either credentials or a code', path: ['code'] })
    .nullish()
    .describe(
      'Credentials or a single sign-on code; leave out (or send empty) to reuse the session or open a guest session',
    ),
  response: sessionSchema,
});

export const checkSessionCall = defineCall({
  method: 'GET',
  path: 'session/check',
  summary: 'Whether the session is valid and belongs to a GUI admin',
  response: z.object({ isGuiAdmin: z.boolean(), sessionValid: z.boolean() }),
});

export const logoutCall = defineCall({
  method: 'GET',
  path: 'session/logout',
  summary: 'End the session',
  response: z.object({ ok: z.literal(true) }),
});

export const setLocaleCall = defineCall({
  method: 'GET',
  path: 'session/set_locale',
  summary: 'Store the interface language of the session',
  query: z.object({ locale: languageCode }),
  response: z.object({ locale: languageCode }),
});

export const convertSetSchema = z.object({ id: z.number().int().min(0), title: z.string() });
export type ConvertSet = z.infer<typeof convertSetSchema>;

export const convertSetsCall = defineCall({
  method: 'GET',
  path: 'session/csets',
  summary: 'Conversion sets the caller may download for an asset',
  query: z.object({ asset_id: z.string().min(1).max(64) }),
  response: z.object({ convert_sets: z.array(convertSetSchema) }),
});

export const forgotPasswordCall = defineCall({
  method: 'POST',
  path: 'user/forgot-password',
  summary: 'Send a password-reset mail (its text comes from the translations); never reveals whether the user exists',
  body: z.strictObject({ user: z.string().min(1).max(256) }),
  response: z.object({ ok: z.literal(true) }),
});

export const passwordSchema = z
  .string()
  .min(8, 'must have at least 8 characters')
  .max(1024, 'must have at most 1024 characters');

export const resetPasswordCall = defineCall({
  method: 'POST',
  path: 'user/reset-password',
  summary: 'Set a new password with the token of a password-reset mail',
  body: z.object({ token: z.string().min(1).max(512), pass: passwordSchema }),
  response: z.object({ ok: z.literal(true) }),
});
