import { alpha, createTheme, darken, lighten, type Theme } from '@mui/material/styles';
import type { ThemeConfig } from '@vitrine/contract/global-config';
import { elevationOverlay } from '@vitrine/contract/config-defaults';

/** Visitors who ask their system for less motion get no animations or transitions (drawers, menus, ripples). */
export const REDUCED_MOTION = '@media (prefers-reduced-motion: reduce)';
export const COARSE_POINTER = '@media (pointer: coarse)';
export const TAP_TARGET = 44;

/** The font stack; a custom font uploaded by an admin goes first once it has loaded. */
const baseFonts = '"Roboto", "Helvetica Neue", Arial, sans-serif';
export const CUSTOM_FONT_FAMILY = 'VitrineCustomFont';

function hover(colour: string, effect: ThemeConfig['appearance_options']['button_hover_effect']): string {
  if (effect === 'darken') return darken(colour, 0.15);
  if (effect === 'lighten') return lighten(colour, 0.15);
  return colour;
}

/**
 * Dialogs stand at z-index 2400 (portal-spec §9), and with them every modal layer (menus, pop-overs
 * and selects opened inside a dialog must stand on it); notices and tooltips stay above them.
 */
export const LAYERS = { modal: 2400, snackbar: 2500, tooltip: 2600 } as const;

/**
 * Builds the MUI theme from a config theme: its 12 colours (admin-spec §3 "Theme"), the hover effects
 * for buttons and lists, and advanced colours exposed as CSS variables (--vitrine-<component>-<key>)
 * that a custom style sheet can use.
 */
export function buildTheme(config: ThemeConfig, options: { customFont?: boolean } = {}): Theme {
  const c = config.appearance;
  const mode = config.dark ? 'dark' : 'light';
  const listHover = config.appearance_options.list_hover_effect;
  const cssVariables = Object.fromEntries(
    Object.entries(config.advanced_appearance).map(([key, value]) => [`--vitrine-${key.replace(/\./g, '-')}`, value]),
  );
  const theme = createTheme({
    palette: {
      mode,
      primary: { main: c.primary, contrastText: c.on_primary },
      secondary: { main: c.secondary, contrastText: c.on_secondary },
      background: { default: c.background, paper: c.surface },
      text: { primary: c.on_surface, secondary: alpha(c.on_surface, 0.75) },
    },
    typography: { fontFamily: options.customFont ? `"${CUSTOM_FONT_FAMILY}", ${baseFonts}` : baseFonts },
    zIndex: LAYERS,
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          ':root': {
            '--vitrine-navigation': c.navigation,
            '--vitrine-on-navigation': c.on_navigation,
            // The keyboard focus ring of plain controls (app/controls.css), as MUI's below.
            '--vt-focus': c.on_background,
            ...cssVariables,
          },
          body: { backgroundColor: c.background, color: c.on_background },
          // Fingers need tap targets of at least 44 × 44 px.
          [COARSE_POINTER]: {
            '.MuiIconButton-root, .MuiButton-root, .MuiToggleButton-root, .MuiListItemButton-root': {
              minWidth: TAP_TARGET,
              minHeight: TAP_TARGET,
            },
          },
          [REDUCED_MOTION]: {
            '*, *::before, *::after': {
              animationDuration: '0.01ms !important',
              animationIterationCount: '1 !important',
              transitionDuration: '0.01ms !important',
              scrollBehavior: 'auto !important',
            },
          },
        },
      },
      // A visible keyboard focus on every button, link button, menu item and chip: the ripple alone
      // is too faint. The page's text colour contrasts with the page in every theme.
      MuiButtonBase: {
        styleOverrides: {
          root: { '&.Mui-focusVisible': { outline: `2px solid ${c.on_background}`, outlineOffset: 2 } },
        },
      },
      MuiAppBar: { styleOverrides: { root: { backgroundColor: c.navigation, color: c.on_navigation } } },
      MuiDrawer: { styleOverrides: { paper: { backgroundColor: c.navigation, color: c.on_navigation } } },
      MuiPopover: { styleOverrides: { paper: { backgroundColor: c.popup_background, color: c.popup_on_background } } },
      MuiMenu: { styleOverrides: { paper: { backgroundColor: c.popup_background, color: c.popup_on_background } } },
      MuiDialog: { styleOverrides: { paper: { backgroundColor: c.popup_background, color: c.popup_on_background } } },
      MuiButton: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { variant: 'contained', color: 'primary' },
                style: {
                  '&:hover': { backgroundColor: hover(c.primary, config.appearance_options.button_hover_effect) },
                },
              },
            ],
          },
        },
      },
      MuiListItemButton: {
        styleOverrides: {
          root: {
            '&:hover': {
              backgroundColor:
                listHover === 'none' ? 'transparent' : alpha(listHover === 'darken' ? '#000000' : '#ffffff', 0.12),
            },
          },
        },
      },
    },
  });
  // Static style sheets (the shell, the search page, the dashboard's rows) read the palette from
  // these, set once per theme, instead of styles serialised by every component at render.
  const root = (theme.components?.MuiCssBaseline?.styleOverrides as Record<string, Record<string, string>>)[':root']!;
  Object.assign(root, paletteVariables(theme));
  return theme;
}

/**
 * The palette as CSS variables (--vt-<name>) for static style sheets. `--vt-elevation-1` is what MUI
 * lays over a paper of elevation 1 in a dark theme (none in a light one).
 */
export function paletteVariables(theme: Theme): Record<string, string> {
  const p = theme.palette;
  return {
    '--vt-primary': p.primary.main,
    '--vt-on-primary': p.primary.contrastText,
    '--vt-paper': p.background.paper,
    '--vt-background': p.background.default,
    '--vt-text': p.text.primary,
    '--vt-text-secondary': p.text.secondary,
    '--vt-disabled': p.action.disabled,
    '--vt-hover': p.action.hover,
    '--vt-divider': p.divider,
    '--vt-elevation-1': elevationOverlay(p.mode === 'dark'),
    '--vt-shadow-1': theme.shadows[1],
  };
}

export { storedThemeKey, storeThemeKey } from './themeChoice.ts';
