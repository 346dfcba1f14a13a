import { z } from 'zod';
import { defineCall } from './call.ts';
import { globalConfigModel } from './global-config.ts';
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

/** The global config object as stored (any subset of the model; missing keys come from defaults). */
export const globalConfigSchema = z.record(z.string(), z.unknown());

/** A translation set: nested groups of text keys. */
export type MessageSet = { [key: string]: string | MessageSet };
/**
 * Recursive, so it is registered under an id: the OpenAPI document then describes it once in
 * components.schemas and refers to it, itself included, by that name.
 */
export const messageSetSchema: z.ZodType<MessageSet> = z
  .lazy(() => z.record(z.string(), z.union([z.string(), messageSetSchema])))
  .meta({ id: 'MessageSet' });

export const getGlobalConfigCall = defineCall({
  method: 'GET',
  path: 'config/global',
  summary: 'The global configuration, stored values over defaults',
  response: globalConfigModel,
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

/** Images an admin can upload and the portal shows (admin-spec §7 image names). */
export const configImageNames = [
  'dashboardLogo',
  'dashboardHero',
  'loginLogo',
  'loginHero',
  'logo',
  'searchLogo',
  'favicon',
] as const;
export const configImageName = z.enum(configImageNames);
export type ConfigImageName = z.infer<typeof configImageName>;

/** Answers of the file calls are the file itself, not JSON. */
const fileAnswer = z.string().describe('The file (binary)');

export const configImageCall = defineCall({
  method: 'GET',
  path: 'config/:name',
  summary: 'An uploaded image (logos, hero images, favicon); 404 when none is uploaded',
  response: fileAnswer,
});

export const configThumbnailCall = defineCall({
  method: 'GET',
  path: 'config/thumbnail',
  summary: 'The tile image of a dashboard collection (its src)',
  query: z.object({ id: z.string().min(1).max(200) }),
  response: fileAnswer,
});

export const configStyleCall = defineCall({
  method: 'GET',
  path: 'config/style',
  summary: 'The custom style sheet (text/css); 404 when none is uploaded',
  response: fileAnswer,
});

export const configFontCall = defineCall({
  method: 'GET',
  path: 'config/custom_font',
  summary: 'The custom font file; 404 when none is uploaded',
  response: fileAnswer,
});
