import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIRST_PAINT_HERO_ID, FIRST_PAINT_ID, FIRST_PAINT_TEMPLATE_ID, type BootData } from '@vitrine/contract/boot';
import { elevationOverlay, flexAlign, logoVisible, pickTheme } from '@vitrine/contract/config-defaults';
import { API_BASE_PATH, configImageCall } from '@vitrine/contract/endpoints';
import type { ThemeConfig } from '@vitrine/contract/global-config';
import { escapeMarkup } from '@vitrine/contract/markup';
import { atWidth, configImageWidths, routePatterns, screenModules, type PortalPage } from '@vitrine/contract/paths';
import { messageAt } from './reset-mail.ts';

/**
 * The built page made ready to paint before the app's code has run (decisions 0242, 0244):
 * - its style sheets are placed in the page, so the first paint waits for no request;
 * - the app's entry module, the modules it needs at once and the zod settings (zod-config.js) are
 *   started by the page's one script of its own (first-paint.js, built from apps/web/src/first-paint),
 *   which asks for the first answers and paints the first screen; its hash the page's
 *   Content-Security-Policy names;
 * - `TEMPLATE_SLOT` marks where a page's first-paint template goes (`firstPaintTemplate`).
 * A page without the module script (not a build) is left as it is.
 */
export interface PreparedPage {
  html: string;
  /** The CSP source of the page's script ('sha256-…'), when the page has one. */
  scriptSource?: string;
}

export const TEMPLATE_SLOT = '<!--vitrine-first-paint-->';

const ENTRY_SCRIPT = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g;
const STYLE_SHEET = /<link rel="stylesheet"[^>]*\shref="([^"]+)"[^>]*>/g;
const ZOD_CONFIG = /<script src="\.\/zod-config\.js"><\/script>\s*/;
const ROOT = '<div id="root"></div>';

/** A file of the build by its address in the page (`./assets/x.css`, `/assets/x.css`). */
const readBuilt = (dist: string, href: string) => readFileSync(path.join(dist, href.replace(/^\.?\//, '')), 'utf8');

/** A chunk of the build's manifest (dist/.vite/manifest.json), as far as it is read here. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * Pages whose code the page's script does not ask for: the admin area is for the signed in, and the
 * upload page's code loads only for an editor's session. (The dashboard's is asked for with the
 * app's, once its hero's picture has been drawn.)
 */
const SCREENS_LEFT_TO_THE_APP: readonly PortalPage[] = ['admin', 'upload'];

/**
 * Per page, the start of its route (`/search`, `/asset`: the pattern before its first parameter) and
 * the files of its screen that the app's entry does not load already: its chunk, the chunks that
 * chunk imports and their style sheets, as the app's own load of the screen would ask for them.
 * Empty without the build's manifest.
 */
export function screenFiles(dist: string, entry: string): [string, string[]][] {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) return [];
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const closure = (key: string, into = new Set<string>()) => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, into);
    return into;
  };
  const entryFile = entry.replace(/^\.?\//, '');
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.file === entryFile);
  const atStart = new Set([...(entryKey ? closure(entryKey) : [])].map((key) => manifest[key]!.file));
  const pages = Object.keys(screenModules) as PortalPage[];
  return pages.flatMap((page): [string, string[]][] => {
    if (SCREENS_LEFT_TO_THE_APP.includes(page) || !manifest[screenModules[page]]) return [];
    const chunks = [...closure(screenModules[page])].map((key) => manifest[key]!).filter((c) => !atStart.has(c.file));
    const files = [...chunks.map((c) => c.file), ...new Set(chunks.flatMap((c) => c.css ?? []))];
    return [[routePatterns[page].split('/:')[0]!, files.map((f) => `./${f}`)]];
  });
}

/** The screens' files as the page's script reads them: `start file file;start file …`. */
export const screensAttribute = (screens: [string, string[]][]) =>
  screens.map(([start, files]) => [start, ...files].join(' ')).join(';');

export function preparePage(template: string, dist: string): PreparedPage {
  const entry = ENTRY_SCRIPT.exec(template)?.[1];
  const ownScript = path.join(dist, 'first-paint.js');
  if (!entry || !template.includes(ROOT) || !existsSync(ownScript)) return { html: template };
  const preloads = [...template.matchAll(MODULE_PRELOAD)].map((m) => m[1] ?? '');
  const zodConfig = ZOD_CONFIG.test(template) ? readBuilt(dist, 'zod-config.js') : '';
  const script = `${zodConfig}${readFileSync(ownScript, 'utf8')}`;
  const html = template
    .replace(ENTRY_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace(ZOD_CONFIG, '')
    .replace(STYLE_SHEET, (_link, href: string) => `<style>${readBuilt(dist, href).replace(/<\//g, '<\\/')}</style>`)
    .replace(
      ROOT,
      `${ROOT}\n    ${TEMPLATE_SLOT}<script data-entry="${escapeMarkup(entry)}" data-preloads="${escapeMarkup(preloads.join(' '))}" data-screens="${escapeMarkup(screensAttribute(screenFiles(dist, entry)))}">${script}</script>`,
    );
  return { html, scriptSource: `'sha256-${createHash('sha256').update(script).digest('base64')}'` };
}

/** A text of the set by its dotted key, in the language or else English, as the app looks it up. */
const text = (data: BootData, language: string, key: string): string | undefined =>
  messageAt(data.messages[language] ?? {}, key) ?? messageAt(data.messages.en ?? {}, key);

/**
 * MUI's shades of a light and a dark palette that the first paint's static rules read as the app's
 * do (lib/theme.ts paletteVariables): hovered and disabled, and an outlined field's border.
 */
const shades = (dark: boolean) =>
  dark
    ? { hover: 'rgba(255, 255, 255, 0.08)', disabled: 'rgba(255, 255, 255, 0.3)', outline: 'rgba(255, 255, 255, 0.23)' }
    : { hover: 'rgba(0, 0, 0, 0.04)', disabled: 'rgba(0, 0, 0, 0.26)', outline: 'rgba(0, 0, 0, 0.23)' };

/** The colours the first paint reads (app/shell.css, app/firstPaint.css, lib/theme.ts), scoped to it. */
function themeRule(theme: ThemeConfig): string {
  const c = theme.appearance;
  const dark = theme.dark;
  const shade = shades(dark);
  return [
    `--vitrine-navigation:${c.navigation}`,
    `--vitrine-on-navigation:${c.on_navigation}`,
    `--vt-divider:${dark ? 'rgba(255, 255, 255, 0.12)' : 'rgba(0, 0, 0, 0.12)'}`,
    `--vt-elevation-1:${elevationOverlay(dark)}`,
    `--vt-primary:${c.primary}`,
    `--vt-paper:${c.surface}`,
    `--vt-text:${c.on_surface}`,
    `--vt-text-secondary:color-mix(in srgb, ${c.on_surface} 75%, transparent)`,
    `--vt-hover:${shade.hover}`,
    `--vt-disabled:${shade.disabled}`,
    `--vt-outline:${shade.outline}`,
    `--vt-focus:${c.on_background}`,
    `background-color:${c.background}`,
    `color:${c.on_background}`,
  ]
    .join(';')
    .replace(/[<>]/g, '');
}

/** A picture uploaded in the admin area, by its name, as the app addresses it. */
const configImage = (name: string) => `${API_BASE_PATH}${configImageCall.path.replace(':name', name)}`;

/**
 * The frame of the app's screens as static markup, in the default themes of the light and the dark
 * colour scheme: the header with the website's logo or title and the navigation's place on wide
 * screens, as the app's shell draws them (the same elements and classes, drawn by app/shell.css),
 * around an empty main element that the page's script fills (src/first-paint): with the dashboard's
 * hero (heroTemplate), or an asset's or a phone's search page drawn from their first answers. None
 * when visitors without an account may not search (the portal asks them to log in first).
 */
function frameTemplate(data: BootData, language: string): string {
  const { config, files } = data;
  // The uploaded logo, and the title for screens whose logos are switched off (visibleLogos): the
  // page's script keeps the one its screen shows. The first paint is hidden from assistive
  // technology, so the logo needs no text.
  const title = escapeMarkup(config.global.website_title);
  const brand = files.logo ? `<img src="${configImage('logo')}" alt="">` : title;
  const style = `#${FIRST_PAINT_ID}{${themeRule(pickTheme(config, null, false))}}
@media (prefers-color-scheme: dark){#${FIRST_PAINT_ID}{${themeRule(pickTheme(config, null, true))}}}`;
  return `<template id="${FIRST_PAINT_TEMPLATE_ID}" data-locale="${escapeMarkup(language)}"><div id="${FIRST_PAINT_ID}" aria-hidden="true"><style>${style}</style><div class="vt-shell"><header class="vt-header"><div class="vt-toolbar"><span class="vt-first-paint-button"></span><span class="vt-brand" data-title="${title}">${brand}</span></div></header><div class="vt-body"><div class="vt-nav vt-first-paint-nav"></div><div class="vt-column"><main class="vt-main"></main></div></div></div></div></template>`;
}

/**
 * The dashboard's hero as static markup, in the language the page's texts are in: its picture, logo,
 * texts and the search input's place, as the app's Hero draws them (the same elements and classes,
 * drawn by app/hero.css). None when the dashboard is not the first screen (`hide_dashboard`) or a
 * text is missing.
 */
function heroTemplate(data: BootData, language: string): string {
  const { config, files } = data;
  const hero = config.dashboard.heroImage;
  if (config.global.hide_dashboard) return '';
  const title = text(data, language, hero.trans_header);
  const body = text(data, language, hero.trans_body);
  if (title === undefined || body === undefined) return '';
  const logo =
    files.dashboardLogo && logoVisible(config, 'dashboard')
      ? `<img class="vt-hero-logo" src="${configImage('dashboardLogo')}" alt="" style="height:${Number(hero.logo.height)}px;align-self:${flexAlign[hero.logo.alignment]}">`
      : '';
  const url = configImage('dashboardHero');
  const picture = files.dashboardHero
    ? `<img class="hero-image" src="${url}" srcset="${configImageWidths.map((w) => `${atWidth(url, w)} ${w}w`).join(', ')}" sizes="100vw" fetchpriority="high" alt="">`
    : '';
  const heroBox = `<div class="vt-hero" style="min-height:${Number(hero.height)}px;align-items:${flexAlign[hero.alignment]};text-align:${hero.alignment}">${picture}${hero.logo.load_outside ? '' : logo}<p class="vt-hero-title">${escapeMarkup(title)}</p><p class="vt-hero-body">${escapeMarkup(body)}</p><div class="vt-first-paint-search"></div></div>`;
  return `<template id="${FIRST_PAINT_HERO_ID}">${hero.logo.load_outside ? logo : ''}${heroBox}</template>`;
}

/**
 * The page's first paint as templates (decision 0242, 0244): the frame of the app's screens and, when
 * the dashboard is the first screen, its hero. None for a portal that asks visitors to log in first.
 */
export function firstPaintTemplate(data: BootData, language: string): string {
  if (!data.fields) return '';
  return `${frameTemplate(data, language)}${heroTemplate(data, language)}`;
}
