import { FRONTEND_VERSION } from './version.ts';
import type { GlobalConfig, ThemeAppearance, ThemeConfig } from './global-config.ts';

/**
 * The defaults of the global configuration (admin-spec §9, portal-spec §9) and the choices made
 * from a config, without the config's schemas: the web app uses these at run time without zod.
 */

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

const theme = (
  key: string,
  dark: boolean,
  appearance: ThemeAppearance,
  hover: ThemeConfig['appearance_options']['button_hover_effect'],
): ThemeConfig => ({
  key,
  translation: `admin.appearance.themes.${key}`,
  appearance,
  appearance_options: { button_hover_effect: hover, list_hover_effect: hover },
  advanced_appearance: {},
  dark,
});

/** Default themes: light and dark with an orange primary (portal-spec §9), and classic. */
export const defaultThemes: [ThemeConfig, ...ThemeConfig[]] = [
  theme(
    'light',
    false,
    {
      primary: '#b34700',
      on_primary: '#ffffff',
      secondary: '#37474f',
      on_secondary: '#ffffff',
      background: '#f7f7f7',
      on_background: '#1f1f1f',
      surface: '#ffffff',
      on_surface: '#1f1f1f',
      popup_background: '#ffffff',
      popup_on_background: '#1f1f1f',
      navigation: '#ffffff',
      on_navigation: '#1f1f1f',
    },
    'darken',
  ),
  theme(
    'dark',
    true,
    {
      primary: '#ff9a3d',
      on_primary: '#1a1a1a',
      secondary: '#b0bec5',
      on_secondary: '#1a1a1a',
      background: '#121212',
      on_background: '#ececec',
      surface: '#1e1e1e',
      on_surface: '#ececec',
      popup_background: '#2a2a2a',
      popup_on_background: '#ececec',
      navigation: '#1a1a1a',
      on_navigation: '#ececec',
    },
    'lighten',
  ),
  theme(
    'classic',
    false,
    {
      primary: '#a34000',
      on_primary: '#ffffff',
      secondary: '#00567a',
      on_secondary: '#ffffff',
      background: '#eeeeee',
      on_background: '#222222',
      surface: '#ffffff',
      on_surface: '#222222',
      popup_background: '#fafafa',
      popup_on_background: '#222222',
      navigation: '#33393d',
      on_navigation: '#ffffff',
    },
    'darken',
  ),
];

const footerEntry = (key: string, position: number, link: string, column: 'Left' | 'Center' | 'Right') => ({
  translation: `global.footer.${key}`,
  is_linkable: link !== '',
  position,
  links: Object.fromEntries(['de', 'en'].map((l) => [l, { linkDirection: 'Internal' as const, link, column }])),
});

/** The twelve steps of the guided tour (portal-spec §2 "Guided tour", admin-spec §9). */
export const tourSteps = [
  'language',
  'bookmark',
  'search_input',
  'tile',
  'collection',
  'sort',
  'views',
  'facets',
  'result',
  'result_view',
  'info_panel',
  'icon_set',
] as const;

export const defaultGlobalConfig: GlobalConfig = {
  version: FRONTEND_VERSION,
  themes: { default_light: 'light', default_dark: 'dark', show_theme_selection: true, options: defaultThemes },
  assetInfo: { paramsLeft: [], paramsRight: [], title: 'title' },
  bookmark: { title: 'title', columns: 4, options: { border_width: 2, card_height: 232 } },
  dashboard: {
    collections: {
      data: [],
      height: 250,
      poster_border_width: 2,
      show_as_tiles: false,
      hide_empty_result: false,
      dam: { all: true, ids: [] },
    },
    heroImage: {
      height: 350,
      alignment: 'center',
      trans_header: 'views.dashboard.hero.header',
      trans_body: 'views.dashboard.hero.body',
      logo: { height: 100, alignment: 'center', load_outside: false },
    },
  },
  facets: [],
  suggestions: [],
  footer: {
    entries: [
      footerEntry('privacy', 0, '/custom', 'Left'),
      footerEntry('terms', 1, '/custom', 'Left'),
      footerEntry('imprint', 2, '/custom', 'Center'),
      footerEntry('copyright', 3, '', 'Right'),
    ],
  },
  infoView: { paramsLeft: [], paramsRight: [], title: 'title', options: { border_width: 2 } },
  login: {
    show_passwordReset: false,
    logoImage: { height: '8rem' },
    headers: { transform: 'none' },
    infoText: { alignment: 'center' },
    register: { show_button: false, links: {} },
    box: { max_width: '40rem' },
  },
  search: {
    views: {
      default: 'grid',
      options: [
        { icon: 'view_agenda', key: 'grid', position: 0, translation: 'views.search.views.grid', visible: true },
        {
          icon: 'view_module',
          key: 'thumbnail',
          position: 1,
          translation: 'views.search.views.thumbnail',
          visible: true,
        },
        { icon: 'view_list', key: 'list', position: 2, translation: 'views.search.views.list', visible: true },
      ],
    },
    list: { columns: [], options: { imageColWidth: 250, rowHeight: 200 } },
    posters: { max_height: 250, min_height: 200, border_width: 2 },
    thumbnails: { height: 330, width: 200, icon_hover: false, border_width: 2, header: 'title', body: [] },
    sidebar: { width: 260 },
    logo: { alignment: 'left' },
  },
  sorting: {
    default: 'score',
    options: [
      { active: true, key: 'score', translation: 'views.search.sort.score' },
      { active: true, key: 'rating', translation: 'views.search.sort.rating' },
      { active: true, key: 'imp_date', translation: 'views.search.sort.imp_date' },
      { active: true, key: 'obj_dload_cnt', translation: 'views.search.sort.obj_dload_cnt' },
    ],
    orientation: { default: 'desc', options: ['asc', 'desc'] },
  },
  terms_of_use: { show: false, links: {} },
  visibleLocales: [
    { lang: 'de', short: 'DE' },
    { lang: 'en', short: 'EN' },
  ],
  content_languages: ['de', 'en'],
  fallback_locale: 'en',
  visibleLogos: ['dashboard', 'search', 'login', 'bookmark', 'asset', 'logout'].map((key) => ({
    key,
    translation: `admin.appearance.logos.${key}`,
    visible: true,
  })),
  global: {
    hide_empty_metadata_fields: true,
    hide_dashboard: false,
    run_order_process: false,
    website_title: 'Vitrine',
    file_size_base: 1000,
  },
  accessibility: { assets: { alt: 'title', alt_fallback: { field_name: 'filename', options: {} } } },
  guide: { show: true, tour: tourSteps.map((key) => ({ key, translation: `views.tour.${key}` })) },
};

/**
 * The content language for an interface language: itself when offered, else the one its translation
 * set names (`metadata.content_language`, admin-spec §3 "Translation set") when offered, else the
 * first offered.
 */
export function pickContentLanguage(
  uiLanguage: string,
  contentLanguages: readonly string[],
  setsContentLanguage?: string,
): string {
  if (contentLanguages.includes(uiLanguage)) return uiLanguage;
  if (setsContentLanguage !== undefined && contentLanguages.includes(setsContentLanguage)) return setsContentLanguage;
  return contentLanguages[0] ?? uiLanguage;
}

/**
 * The theme to use: the chosen one when it exists, else the default for the colour scheme. The
 * schema asks for at least one theme; a config that still has none gets the built-in light theme.
 */
export function pickTheme(config: GlobalConfig, chosen: string | null, prefersDark: boolean): ThemeConfig {
  const { options, default_dark, default_light } = config.themes;
  const byKey = (key: string | null) => options.find((t) => t.key === key);
  const fallback = prefersDark ? default_dark : default_light;
  return (
    (config.themes.show_theme_selection ? byKey(chosen) : undefined) ??
    byKey(fallback) ??
    options[0] ??
    defaultThemes[0]
  );
}

/** A configured alignment (the hero, its logo) as flexbox places it. */
export const flexAlign = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

/** What lies over a paper of elevation 1 in a dark theme (MUI's overlay; none in a light one). */
export const elevationOverlay = (dark: boolean): string =>
  dark ? 'linear-gradient(rgba(255, 255, 255, 0.05), rgba(255, 255, 255, 0.05))' : 'none';

/** Whether the config shows the logos on a screen (visibleLogos, by the screen's key; shown unless switched off). */
export const logoVisible = (config: Pick<GlobalConfig, 'visibleLogos'>, screen: string): boolean =>
  config.visibleLogos.find((l) => l.key === screen)?.visible !== false;
