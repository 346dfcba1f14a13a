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
 * The first paint of a first visit to the dashboard (apps/server/src/config/first-paint.ts): the
 * page carries the hero as static markup in a template of this id, which the page's script shows in
 * an element of the other id until the app draws its own screen (apps/web/src/app/firstPaint.ts).
 */
export const FIRST_PAINT_TEMPLATE_ID = 'vt-first-paint-template';
export const FIRST_PAINT_ID = 'vt-first-paint';
