import type { ConfigFileName, MessageSet } from './config.ts';
import type { GlobalConfig } from './global-config.ts';
import type { IndexField } from './search.ts';

/**
 * What the portal's page carries for its first screen (the answers of config/global, config and
 * config/translations), so that the first paint waits for no call: the id of the element holding it
 * as JSON, and its shape. `fields` (index/fields) is there when a visitor without an account may search;
 * `messages` holds the language the server expects the visitor to get and
 * English (the fallback); the app loads any other language as before. This module has no schema (the
 * web app does not parse answers again), so the app's first script stays free of zod.
 */
export const BOOT_DATA_ELEMENT_ID = 'vitrine-boot';

export interface BootData {
  config: GlobalConfig;
  files: Record<ConfigFileName, boolean>;
  locales: string[];
  messages: Record<string, MessageSet>;
  fields?: IndexField[];
}

/**
 * The page's first paint (apps/server/src/config/first-paint.ts, apps/web/src/first-paint): the page
 * carries the frame of the app's screens (header, navigation, main) as static markup in a template of
 * the first id, and the dashboard's hero in one of the second; the page's script shows them, or draws
 * an asset's or a phone's search page into the frame from the first answers, in an element of the
 * third id, which names the page it shows (`data-page`), until the app draws its own screen
 * (apps/web/src/lib/firstPaint.ts).
 */
export const FIRST_PAINT_TEMPLATE_ID = 'vt-first-paint-template';
export const FIRST_PAINT_HERO_ID = 'vt-first-paint-hero';
export const FIRST_PAINT_ID = 'vt-first-paint';
