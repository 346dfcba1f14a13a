import { z } from 'zod';
import { defineCall } from './call.ts';
import { languageCode } from './info.ts';

/** Files an admin can upload (admin-spec §3 "Available-files flags", §7 image names). */
export const configFileNames = [
  'custom_font',
  'dashboardHero',
  'dashboardLogo',
  'loginHero',
  'loginLogo',
  'logo',
  'style',
  'searchLogo',
  'favicon',
] as const;
export const configFileName = z.enum(configFileNames);
export type ConfigFileName = z.infer<typeof configFileName>;

export const availableFilesSchema = z.object(
  Object.fromEntries(configFileNames.map((n) => [n, z.boolean()])) as Record<ConfigFileName, z.ZodBoolean>,
);

/** The global config object; its full model and defaults are filled in with the portal shell. */
export const globalConfigSchema = z.record(z.string(), z.unknown());

/** A translation set: nested groups of text keys. */
export type MessageSet = { [key: string]: string | MessageSet };
export const messageSetSchema: z.ZodType<MessageSet> = z.lazy(() =>
  z.record(z.string(), z.union([z.string(), messageSetSchema])),
);

export const getGlobalConfigCall = defineCall({
  method: 'GET',
  path: 'config/global',
  summary: 'The global configuration, stored values over defaults',
  response: globalConfigSchema,
});

export const saveGlobalConfigCall = defineCall({
  method: 'POST',
  path: 'config/global',
  summary: 'Replace the global configuration (GUI admins)',
  body: globalConfigSchema,
  response: globalConfigSchema,
});

export const availableFilesCall = defineCall({
  method: 'GET',
  path: 'config',
  summary: 'Which admin-uploaded files exist',
  response: availableFilesSchema,
});

export const listTranslationsCall = defineCall({
  method: 'GET',
  path: 'config/translations',
  summary: 'The translation sets (locales) or, with lang, one message set',
  query: z.object({ lang: languageCode.optional() }),
  response: z.union([z.object({ locales: z.array(languageCode) }), messageSetSchema]),
});

export const saveTranslationsCall = defineCall({
  method: 'POST',
  path: 'config/translations',
  summary: 'Replace the message set of one language (GUI admins)',
  query: z.object({ lang: languageCode }),
  body: messageSetSchema,
  response: z.object({ ok: z.literal(true) }),
});

export const customPageCall = defineCall({
  method: 'GET',
  path: 'config/custom_html',
  summary: 'Custom page locales or, with lang, the page',
  query: z.object({ lang: languageCode.optional() }),
  response: z.union([
    z.object({ locales: z.array(languageCode) }),
    z.object({ heading: z.string(), html: z.string() }),
  ]),
});

export const saveCustomPageCall = defineCall({
  method: 'POST',
  path: 'config/custom_html',
  summary: 'Replace the custom page of one language (GUI admins)',
  query: z.object({ lang: languageCode }),
  body: z.object({ heading: z.string().max(500), html: z.string().max(1_000_000) }),
  response: z.object({ ok: z.literal(true) }),
});
