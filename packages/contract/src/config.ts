import { z } from 'zod';
import { defineCall } from './call.ts';
import { configFileNames } from './config-defaults.ts';
import { globalConfigModel } from './global-config.ts';
import { languageCode } from './formats.ts';
import { configImageWidths, thumbWidths } from './paths.ts';

/** Files an admin can upload (admin-spec §3 "Available-files flags", §7 image names). */
export { configFileNames };

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
  summary: 'Replace the whole global configuration (GUI admins); the previous one stays in the history',
  body: globalConfigModel,
  response: globalConfigModel,
});

export const storedConfigCall = defineCall({
  method: 'GET',
  path: 'config/global/stored',
  summary: 'The global configuration exactly as stored, or null when none is (GUI admins; for upgrades)',
  response: z.object({ config: globalConfigSchema.nullable() }),
});

export const configVersionSchema = z.object({
  id: z.number().int(),
  saved_by: z.string(),
  saved_at: z.string().describe('ISO 8601'),
  version: z.string().describe('The config model version the saved object carried'),
  /** The history entry this save restored, when it was a rollback. */
  restored_from: z.number().int().nullable(),
});
export type ConfigVersion = z.infer<typeof configVersionSchema>;

export const configHistoryCall = defineCall({
  method: 'GET',
  path: 'config/history',
  summary: 'Saved versions of the global configuration, newest first (GUI admins)',
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
  response: z.object({ versions: z.array(configVersionSchema) }),
});

export const configRollbackCall = defineCall({
  method: 'POST',
  path: 'config/history/rollback',
  summary: 'Save an earlier version of the global configuration again (GUI admins)',
  body: z.object({ id: z.number().int().min(1) }),
  response: globalConfigModel,
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

/** Every stored set as written, so the admin area can tell whether an upgrade changes it (admin-spec §4). */
export const storedTranslationsCall = defineCall({
  method: 'GET',
  path: 'config/translations/stored',
  summary: 'Every stored translation set exactly as stored, by language (GUI admins; for upgrades)',
  response: z.object({ translations: z.record(z.string(), messageSetSchema) }),
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

/** Files over this size are refused; images over IMAGE_WARNING_BYTES only draw a warning (admin-spec §5). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const IMAGE_WARNING_BYTES = 1024 * 1024;

/** The id of a collection tile image (a pre-search's `src`), as it names the stored file. */
export const tileImageId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, 'Letters, digits, "_" and "-" only (at most 200)')
  .describe('Tile image id');

export const uploadConfigFileCall = defineCall({
  method: 'POST',
  path: 'config/:name',
  summary:
    'Upload (multipart, field "file") or, with an empty body, delete an image, the style sheet or the font; ' +
    'name "thumbnail" with an id is the tile image of a collection (GUI admins)',
  query: z.object({ id: tileImageId.optional() }),
  response: z.object({ saved: z.boolean(), deleted: z.boolean() }),
});

export const configImageCall = defineCall({
  method: 'GET',
  path: 'config/:name',
  summary:
    'An uploaded image (logos, hero images, favicon); 404 when none is uploaded. `w` asks for a raster ' +
    'image as WebP at most that wide; SVG and icons are served as they are',
  query: z.object({ w: z.coerce.number().pipe(z.literal(configImageWidths)).optional() }),
  response: fileAnswer,
});

export const configThumbnailCall = defineCall({
  method: 'GET',
  path: 'config/thumbnail',
  summary: 'The tile image of a dashboard collection (its src); `w` picks a width of an asset thumbnail',
  query: z.object({
    id: z.string().min(1).max(200),
    w: z.coerce.number().pipe(z.literal(thumbWidths)).optional(),
  }),
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
