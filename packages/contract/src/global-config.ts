import { z } from 'zod';
import { filterVals } from './field-format.ts';
import { defaultGlobalConfig } from './config-defaults.ts';
import { hexColour, languageCode } from './formats.ts';

/**
 * The global configuration (admin-spec §3 "Config") with the defaults of admin-spec §9 and
 * portal-spec §9. Stored configs may be older or partial: `fillConfigDefaults` fills every missing
 * key from the defaults (admin-spec §4 "Config versioning and upgrade", step 1). Objects accept keys
 * this model does not name, so a config written by a newer version survives a round trip.
 */

const perLanguage = <T extends z.ZodType>(value: T) => z.record(z.string(), value);
const alignment = z.enum(['left', 'center', 'right']);

/**
 * Whether an admin-configured link is safe to put in the portal's pages: empty, a path or fragment
 * inside the portal (`/custom`, `#/search`), or an `http:`, `https:` or `mailto:` address. Browsers
 * ignore tabs, line breaks and leading control characters in a URL, so they are ignored here too
 * (`java\tscript:` is a script URL).
 */
export function isSafeLink(link: string): boolean {
  const v = [...link].filter((c) => c.charCodeAt(0) > 0x20).join('');
  if (v === '' || v.startsWith('#')) return true;
  if (v.startsWith('/')) return !/^\/[/\\]/.test(v);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v)?.[1]?.toLowerCase();
  return scheme === 'http' || scheme === 'https' || scheme === 'mailto';
}

/** A text the portal cannot do without (the website title, the alt field): not empty, not only blanks. */
const notBlank = z.string().refine((v) => v.trim() !== '', 'must not be empty');

/** A link an admin configures (footer, registration, terms of use); see isSafeLink. */
const configuredLink = z
  .string()
  .max(2048)
  .refine(isSafeLink, 'must be an http(s) or mailto address, or a path in the portal starting with /');

/** The 12 colours of a theme (admin-spec §3 "Config" themes.appearance). */
export const themeColourKeys = [
  'primary',
  'on_primary',
  'secondary',
  'on_secondary',
  'background',
  'on_background',
  'surface',
  'on_surface',
  'popup_background',
  'popup_on_background',
  'navigation',
  'on_navigation',
] as const;
export type ThemeColourKey = (typeof themeColourKeys)[number];

export const themeAppearanceSchema = z.object(
  Object.fromEntries(themeColourKeys.map((k) => [k, hexColour])) as Record<ThemeColourKey, typeof hexColour>,
);
export type ThemeAppearance = z.infer<typeof themeAppearanceSchema>;

export const themeSchema = z.looseObject({
  key: z.string().min(1),
  translation: z.string(),
  appearance: themeAppearanceSchema,
  appearance_options: z.looseObject({
    button_hover_effect: z.enum(['darken', 'lighten', 'none']),
    list_hover_effect: z.enum(['darken', 'lighten', 'none']),
  }),
  /** component.key → colour, for finer adjustments than the 12 colours. */
  advanced_appearance: z.record(z.string(), hexColour),
  /** Whether the theme is built as a dark (true) or light palette. */
  dark: z.boolean(),
});
export type ThemeConfig = z.infer<typeof themeSchema>;

/** A bookmark card is at least this high: its picture is the card less its 32 px title row. */
export const BOOKMARK_CARD_MIN_HEIGHT = 100;

const fieldList = z.array(z.looseObject({ field_name: z.string(), translation: z.string().optional() }));

export const facetConfigSchema = z.looseObject({
  field_name: z.string(),
  translation: z.string().optional(),
  /** Per language: the facet's name in the sidebar, written by an admin; when empty, as before (translation, index label). */
  labels: perLanguage(z.string().max(200)).optional(),
  position: z.number().int(),
  range_facet: z.boolean().default(false),
  options: z
    .looseObject({
      preview: z.number().int().min(1).default(10),
      multivalue: z.enum(['checkbox', 'radio', 'slider']).default('checkbox'),
      filterVal: z.enum(filterVals).optional(),
      formatVal: z.string().optional(),
      sort: z.enum(['count', 'alphabetical']).default('alphabetical'),
      sort_orientation: z.enum(['asc', 'desc']).default('asc'),
    })
    .default({ preview: 10, multivalue: 'checkbox', sort: 'alphabetical', sort_orientation: 'asc' }),
});

/** A dashboard pre-search (admin-spec §3 "Pre-search"); the search helper runs exactly this. */
export const preSearchSchema = z.looseObject({
  key: z.string().min(1),
  translation: z.string().optional(),
  position: z.number().int(),
  search: perLanguage(
    z.object({
      text: z.string().default(''),
      facets: z
        .array(
          z.object({
            key: z.string(),
            values: z.array(z.string()),
            range: z.object({ from: z.string(), to: z.string() }).optional(),
          }),
        )
        .default([]),
    }),
  ),
  sort: z.string().optional(),
  orientation: z.enum(['asc', 'desc']).optional(),
  src: z.string().optional().describe('Tile image id'),
});
export type PreSearch = z.infer<typeof preSearchSchema>;

export const footerEntrySchema = z.looseObject({
  /** The text key of the entry's text; empty for an entry an admin added with texts of its own. */
  translation: z.string(),
  /** Per language: the entry's text, written by an admin; when empty, the translation's text. */
  labels: perLanguage(z.string().max(200)).optional(),
  is_linkable: z.boolean(),
  position: z.number().int(),
  /** Per language: where the entry links to and in which footer column it sits. */
  links: perLanguage(
    z.object({
      linkDirection: z.enum(['External', 'Internal']),
      link: configuredLink,
      column: z.enum(['None', 'Left', 'Center', 'Right']),
    }),
  ),
});
export type FooterEntry = z.infer<typeof footerEntrySchema>;

export const viewKey = z.enum(['grid', 'thumbnail', 'list']);
export type ViewKey = z.infer<typeof viewKey>;

/**
 * The alternative text's last resort (decision 0267): a text per content language, said when neither
 * the alt field nor the fallback field has a value. Options of older configs (`{}`, other keys) stay valid.
 */
export const altFallbackOptions = z.looseObject({
  text: z.record(z.string(), z.string().max(200)).optional(),
});

export const globalConfigModel = z.looseObject({
  version: z.string(),
  themes: z.looseObject({
    default_light: z.string(),
    default_dark: z.string(),
    show_theme_selection: z.boolean(),
    options: z.array(themeSchema).min(1),
  }),
  assetInfo: z.looseObject({ paramsLeft: fieldList, paramsRight: fieldList, title: z.string() }),
  bookmark: z.looseObject({
    title: z.string(),
    columns: z.number().int().min(1).max(12),
    options: z.looseObject({
      border_width: z.number().min(0),
      /**
       * A card's height in px: its picture is this less 32 (the title row) on medium and larger
       * screens, 200 on smaller ones (portal-spec §9).
       */
      card_height: z.number().int().min(BOOKMARK_CARD_MIN_HEIGHT).max(2000),
    }),
  }),
  dashboard: z.looseObject({
    collections: z.looseObject({
      data: z.array(preSearchSchema),
      height: z.number().min(50),
      poster_border_width: z.number().min(0),
      show_as_tiles: z.boolean(),
      hide_empty_result: z.boolean(),
      /**
       * The DAM collections the dashboard shows after the pre-searches: every one the visitor sees,
       * in the order they were made (`all`), or only those chosen, in the order of `ids`.
       */
      dam: z.looseObject({ all: z.boolean(), ids: z.array(z.number().int().positive()).max(1000) }),
    }),
    heroImage: z.looseObject({
      height: z.number().min(0),
      alignment,
      trans_header: z.string(),
      trans_body: z.string(),
      logo: z.looseObject({ height: z.number().min(0), alignment, load_outside: z.boolean() }),
    }),
  }),
  facets: z.array(facetConfigSchema),
  suggestions: z.array(z.looseObject({ field_name: z.string(), translation: z.string().optional() })),
  footer: z.looseObject({ entries: z.array(footerEntrySchema) }),
  infoView: z.looseObject({
    paramsLeft: fieldList,
    paramsRight: fieldList,
    title: z.string(),
    options: z.looseObject({ border_width: z.number().min(0) }),
  }),
  login: z.looseObject({
    show_passwordReset: z.boolean(),
    logoImage: z.looseObject({ height: z.string() }),
    headers: z.looseObject({ transform: z.enum(['none', 'uppercase', 'lowercase', 'capitalize']) }),
    infoText: z.looseObject({ alignment }),
    register: z.looseObject({ show_button: z.boolean(), links: perLanguage(configuredLink) }),
    box: z.looseObject({ max_width: z.string() }),
  }),
  search: z.looseObject({
    views: z.looseObject({
      default: viewKey,
      options: z.array(
        z.looseObject({
          icon: z.string(),
          key: viewKey,
          position: z.number().int(),
          translation: z.string(),
          visible: z.boolean(),
        }),
      ),
    }),
    list: z.looseObject({
      columns: fieldList,
      options: z.looseObject({ imageColWidth: z.number().min(0), rowHeight: z.number().min(1) }),
    }),
    posters: z.looseObject({ max_height: z.number().min(1), min_height: z.number().min(1), border_width: z.number() }),
    thumbnails: z.looseObject({
      height: z.number().min(1),
      width: z.number().min(1),
      icon_hover: z.boolean(),
      border_width: z.number().min(0),
      header: z.string(),
      body: fieldList,
    }),
    sidebar: z.looseObject({ width: z.number().min(80) }),
    logo: z.looseObject({ alignment }),
  }),
  sorting: z.looseObject({
    default: z.string(),
    options: z.array(z.looseObject({ active: z.boolean(), key: z.string(), translation: z.string() })),
    orientation: z.looseObject({ default: z.enum(['asc', 'desc']), options: z.array(z.enum(['asc', 'desc'])) }),
  }),
  terms_of_use: z.looseObject({ show: z.boolean(), links: perLanguage(configuredLink) }),
  /** The interface languages offered in the header's language switch. */
  visibleLocales: z
    .array(z.object({ lang: languageCode, short: z.string().min(1).max(8), name: z.string().max(100).optional() }))
    .min(1),
  /** Languages metadata values may carry; the first is used when the interface language is not one. */
  content_languages: z.array(languageCode).min(1),
  fallback_locale: languageCode,
  visibleLogos: z.array(z.looseObject({ key: z.string(), translation: z.string(), visible: z.boolean() })),
  global: z.looseObject({
    hide_empty_metadata_fields: z.boolean(),
    hide_dashboard: z.boolean(),
    run_order_process: z.boolean(),
    website_title: notBlank,
    /** File sizes in units of 1000 (kB, MB) or 1024 (KiB, MiB) (portal-spec §3 "Field configuration"). */
    file_size_base: z.union([z.literal(1000), z.literal(1024)]),
  }),
  accessibility: z.looseObject({
    assets: z.looseObject({
      alt: notBlank,
      alt_fallback: z.looseObject({ field_name: z.string(), options: altFallbackOptions }),
    }),
  }),
  guide: z.looseObject({
    show: z.boolean(),
    tour: z.array(z.looseObject({ key: z.string(), translation: z.string() })),
  }),
});
export type GlobalConfig = z.infer<typeof globalConfigModel>;

export { defaultGlobalConfig, defaultThemes, pickContentLanguage, pickTheme, tourSteps } from './config-defaults.ts';

type Json = unknown;

function isPlainObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Stored values over defaults: objects merge key by key; arrays and scalars are taken as stored. */
export function mergeOverDefaults(defaults: Json, stored: Json): Json {
  if (stored === undefined || stored === null) return defaults;
  if (isPlainObject(defaults) && isPlainObject(stored)) {
    const out: Record<string, Json> = { ...defaults };
    for (const [k, v] of Object.entries(stored)) out[k] = mergeOverDefaults(defaults[k], v);
    return out;
  }
  return stored;
}

function valueAt(root: Json, path: readonly PropertyKey[]): Json {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, Json>)[key];
  }
  return cur;
}

function replaceAt(root: Json, path: readonly PropertyKey[], value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [PropertyKey, ...PropertyKey[]];
  const copy: Record<PropertyKey, Json> | Json[] = Array.isArray(root)
    ? [...(root as Json[])]
    : { ...(root as Record<PropertyKey, Json>) };
  (copy as Record<PropertyKey, Json>)[head] = replaceAt((copy as Record<PropertyKey, Json>)[head], rest, value);
  return copy;
}

/** The nearest enclosing default of an invalid value (a whole theme, a whole array, …). */
function nearestDefault(path: readonly PropertyKey[]): { path: PropertyKey[]; value: Json } {
  for (let n = path.length; n >= 0; n--) {
    const prefix = path.slice(0, n);
    const value = valueAt(defaultGlobalConfig, prefix);
    if (value !== undefined) return { path: prefix, value };
  }
  return { path: [], value: defaultGlobalConfig };
}

/**
 * The innermost stored list an invalid value lies in, and that list without the entry holding it:
 * one entry of the wrong shape (a language without its short name, a footer link without a type) is
 * left out, not the admin's whole list replaced by the defaults.
 */
function invalidEntry(root: Json, path: readonly PropertyKey[]): { list: PropertyKey[]; without: Json[] } | undefined {
  for (let n = path.length - 1; n >= 0; n--) {
    const list = valueAt(root, path.slice(0, n));
    const at = path[n];
    if (Array.isArray(list) && typeof at === 'number' && at < list.length) {
      return { list: path.slice(0, n), without: list.filter((_, i) => i !== at) };
    }
  }
  return undefined;
}

/**
 * Fills keys missing from a stored config with the defaults; a stored value of the wrong shape is
 * replaced by its default, an entry of a list of the wrong shape is left out (a list left empty
 * where one entry is needed gets the default list), so the portal always has a usable config.
 */
export function fillConfigDefaults(stored: unknown): GlobalConfig {
  let merged = mergeOverDefaults(defaultGlobalConfig, isPlainObject(stored) ? stored : {});
  for (let attempt = 0; attempt < 200; attempt++) {
    const parsed = globalConfigModel.safeParse(merged);
    if (parsed.success) return parsed.data;
    // One issue at a time: leaving out an entry moves the positions the other issues name.
    const [issue] = parsed.error.issues;
    const entry = issue ? invalidEntry(merged, issue.path) : undefined;
    if (entry) {
      merged = replaceAt(merged, entry.list, entry.without);
    } else {
      const fix = nearestDefault(issue?.path ?? []);
      merged = replaceAt(merged, fix.path, fix.value);
    }
  }
  return defaultGlobalConfig;
}
