import type { MessageSet } from './config.ts';
import { defaultGlobalConfig, defaultThemes, fillConfigDefaults, type GlobalConfig } from './global-config.ts';
import { FRONTEND_VERSION, parseVersion } from './version.ts';
import { escapeAtSigns } from './at-signs.ts';

export { ESCAPED_AT, escapeAtSigns, unescapeAtSigns } from './at-signs.ts';

/**
 * Config and text versioning (admin-spec §4 "Config versioning and upgrade"). A stored document
 * older than a step's version gets that step: each step lists dot-separated keys whose stored value
 * is replaced by the current default (`override`) or removed (`delete`). Steps run oldest first.
 */
export interface MigrationStep {
  version: string;
  override: readonly string[];
  delete: readonly string[];
}

/** The version the current text sets carry in `metadata.version` (admin-spec §9: up to 7.1.0). */
export const TEXTS_VERSION = '7.1.0';

/** Config steps 3.4.0 → 6.0.1 (admin-spec §9). */
export const configMigrations: readonly MigrationStep[] = [
  { version: '3.4.0', override: ['search.views'], delete: ['search.filter_position', 'dashboard.slider'] },
  { version: '5.3.0', override: ['sorting.orientation'], delete: ['search.show_facet_count'] },
  { version: '6.0.0', override: ['login.box'], delete: ['themes.colors', 'global.theme'] },
  { version: '6.0.1', override: ['search.sidebar'], delete: ['search.sidebar.width_px'] },
];

/** Text steps 3.4.0 → 7.1.0 (admin-spec §9). */
export const textMigrations: readonly MigrationStep[] = [
  { version: '3.4.0', override: ['views.search.tags.error'], delete: ['views.search.filter_hint'] },
  { version: '5.3.0', override: ['toast.download.rate_limit_reached'], delete: ['toast.download.wait_old'] },
  { version: '6.0.0', override: ['admin.validation'], delete: ['global.theme_toggle'] },
  { version: '7.0.0', override: ['toast.login.blocked'], delete: ['views.dashboard.slider'] },
  { version: '7.1.0', override: ['toast.custom_page'], delete: ['toast.custom_page_saved'] },
];

export function compareVersions(a: string | null | undefined, b: string | null | undefined): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function getPath(root: Json, path: string): Json {
  let cur = root;
  for (const key of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function setPath(root: JsonObject, path: string, value: Json): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let cur = root;
  for (const key of keys) {
    if (!isObject(cur[key])) cur[key] = {};
    cur = cur[key] as JsonObject;
  }
  if (value === undefined) delete cur[last];
  else cur[last] = clone(value);
}

/** Applies every step newer than `from`; answers whether anything ran. */
function applySteps(doc: JsonObject, from: string, steps: readonly MigrationStep[], defaults: Json): boolean {
  let ran = false;
  for (const step of steps) {
    if (compareVersions(from, step.version) >= 0) continue;
    for (const key of step.override) setPath(doc, key, getPath(defaults, key));
    for (const key of step.delete) setPath(doc, key, undefined);
    ran = true;
  }
  return ran;
}

/** Pre-search filters stored with `values: null` (before 6.0.0) become empty value lists. */
function fixNullFilters(config: JsonObject): void {
  const data = getPath(config, 'dashboard.collections.data');
  for (const preSearch of Array.isArray(data) ? data : []) {
    if (!isObject(preSearch) || !isObject(preSearch.search)) continue;
    for (const perLang of Object.values(preSearch.search)) {
      if (!isObject(perLang) || !Array.isArray(perLang.facets)) continue;
      perLang.facets = perLang.facets
        .filter((f): f is JsonObject => isObject(f) && typeof f.key === 'string')
        .map((f) => ({
          ...f,
          values: Array.isArray(f.values) ? f.values.filter((v) => v !== null && v !== undefined) : [],
          ...(f.range === null ? { range: undefined } : {}),
        }));
    }
  }
  const facets = config.facets;
  if (Array.isArray(facets)) {
    for (const facet of facets) {
      if (isObject(facet) && isObject(facet.options) && facet.options.filterVal === null)
        facet.options.filterVal = 'none';
    }
  }
}

/** Adds the classic theme to a config written before themes could be chosen (below 6.0.0). */
function addClassicTheme(config: JsonObject): void {
  const classic = defaultThemes.find((t) => t.key === 'classic');
  if (!classic) return;
  const themes = isObject(config.themes) ? config.themes : {};
  const options = Array.isArray(themes.options) ? themes.options : clone(defaultGlobalConfig.themes.options);
  if (!options.some((t) => isObject(t) && t.key === 'classic')) options.push(clone(classic));
  config.themes = { ...themes, options };
}

export interface ConfigMigration {
  config: GlobalConfig;
  /** The version the stored config carried (non-semantic versions count as 0.0.0). */
  fromVersion: string;
  /** Keys were missing and filled from the defaults. */
  merged: boolean;
  /** Migration steps ran (the stored version was older). */
  updated: boolean;
}

function missingKeys(defaults: Json, stored: Json): boolean {
  if (!isObject(defaults)) return false;
  if (!isObject(stored)) return true;
  return Object.keys(defaults).some((k) => !(k in stored) || missingKeys(defaults[k], stored[k]));
}

/** Brings a stored config to the current model (admin-spec §4 steps 1–5). */
export function migrateConfig(stored: unknown): ConfigMigration {
  const doc: JsonObject = isObject(stored) ? clone(stored) : {};
  const version = typeof doc.version === 'string' ? doc.version : '';
  const fromVersion = parseVersion(version).join('.');
  const updated = applySteps(doc, fromVersion, configMigrations, defaultGlobalConfig);
  if (compareVersions(fromVersion, '6.0.0') < 0) {
    addClassicTheme(doc);
    fixNullFilters(doc);
  }
  const merged = missingKeys(defaultGlobalConfig, doc);
  doc.version = FRONTEND_VERSION;
  return {
    config: fillConfigDefaults(doc),
    fromVersion,
    merged,
    updated: updated || compareVersions(fromVersion, FRONTEND_VERSION) !== 0,
  };
}

export interface TextMigration {
  texts: MessageSet;
  fromVersion: string;
  updated: boolean;
}

/** Brings a stored text set to the current keys; `bundled` supplies the texts of overridden keys. */
export function migrateTexts(stored: MessageSet, bundled: MessageSet): TextMigration {
  let doc: JsonObject = clone(stored);
  const version = getPath(doc, 'metadata.version');
  const fromVersion = parseVersion(typeof version === 'string' ? version : '').join('.');
  const updated = applySteps(doc, fromVersion, textMigrations, bundled);
  if (compareVersions(fromVersion, '6.0.0') < 0) doc = escapeAtSigns(doc as MessageSet);
  setPath(doc, 'metadata.version', TEXTS_VERSION);
  return {
    texts: doc as MessageSet,
    fromVersion,
    updated: updated || compareVersions(fromVersion, TEXTS_VERSION) !== 0,
  };
}
