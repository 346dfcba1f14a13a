import { getLuminance } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { defaultThemes } from '@vitrine/contract/config-defaults';
import type { ThemeConfig } from '@vitrine/contract/global-config';
import { buildTheme, COARSE_POINTER, CUSTOM_FONT_FAMILY, REDUCED_MOTION, TAP_TARGET } from './theme.ts';

const light = defaultThemes.find((t) => t.key === 'light') as ThemeConfig;
const dark = defaultThemes.find((t) => t.key === 'dark') as ThemeConfig;

describe('theme from the config (admin-spec §3 "Theme")', () => {
  it('builds the palette from the 12 colours', () => {
    const theme = buildTheme(light);
    expect(theme.palette.mode).toBe('light');
    expect(theme.palette.primary.main).toBe(light.appearance.primary);
    expect(theme.palette.primary.contrastText).toBe(light.appearance.on_primary);
    expect(theme.palette.secondary.main).toBe(light.appearance.secondary);
    expect(theme.palette.secondary.contrastText).toBe(light.appearance.on_secondary);
    expect(theme.palette.background.default).toBe(light.appearance.background);
    expect(theme.palette.background.paper).toBe(light.appearance.surface);
    expect(theme.palette.text.primary).toBe(light.appearance.on_surface);
  });

  it('colours navigation and pop-ups with their own colours', () => {
    const theme = buildTheme(dark);
    expect(theme.palette.mode).toBe('dark');
    expect(theme.components?.MuiAppBar?.styleOverrides?.root).toEqual({
      backgroundColor: dark.appearance.navigation,
      color: dark.appearance.on_navigation,
    });
    expect(theme.components?.MuiMenu?.styleOverrides?.paper).toEqual({
      backgroundColor: dark.appearance.popup_background,
      color: dark.appearance.popup_on_background,
    });
    expect(theme.components?.MuiCssBaseline?.styleOverrides).toMatchObject({
      body: { backgroundColor: dark.appearance.background, color: dark.appearance.on_background },
    });
  });

  it('turns advanced colours into CSS variables a custom style sheet can use', () => {
    const theme = buildTheme({ ...light, advanced_appearance: { 'card.border': '#123456' } });
    expect(theme.components?.MuiCssBaseline?.styleOverrides).toMatchObject({
      ':root': { '--vitrine-card-border': '#123456', '--vitrine-navigation': light.appearance.navigation },
    });
  });

  describe('admin-spec §3 "Config" themes.appearance_options {button_hover_effect, list_hover_effect}', () => {
    type Effect = ThemeConfig['appearance_options']['button_hover_effect'];
    const withEffects = (button: Effect, list: Effect) =>
      buildTheme({ ...light, appearance_options: { button_hover_effect: button, list_hover_effect: list } });
    /** The background a contained primary button takes under the pointer. */
    const buttonHover = (button: Effect) => {
      const root = withEffects(button, 'none').components?.MuiButton?.styleOverrides?.root as {
        variants: { props: Record<string, string>; style: { '&:hover': { backgroundColor: string } } }[];
      };
      const contained = root.variants.find((v) => v.props.variant === 'contained' && v.props.color === 'primary');
      return contained?.style['&:hover'].backgroundColor;
    };
    /** The background a list entry takes under the pointer. */
    const listHover = (list: Effect) =>
      (withEffects('none', list).components?.MuiListItemButton?.styleOverrides?.root as Record<string, unknown>)[
        '&:hover'
      ];

    it('button_hover_effect darkens or lightens the primary button under the pointer, or leaves it as it is', () => {
      const primary = getLuminance(light.appearance.primary);
      expect(getLuminance(buttonHover('darken') as string)).toBeLessThan(primary);
      expect(getLuminance(buttonHover('lighten') as string)).toBeGreaterThan(primary);
      expect(buttonHover('none')).toBe(light.appearance.primary);
    });

    it('list_hover_effect lays a dark or a light veil over a list entry under the pointer, or none', () => {
      expect(listHover('darken')).toEqual({ backgroundColor: 'rgba(0, 0, 0, 0.12)' });
      expect(listHover('lighten')).toEqual({ backgroundColor: 'rgba(255, 255, 255, 0.12)' });
      expect(listHover('none')).toEqual({ backgroundColor: 'transparent' });
    });
  });

  it('puts the custom font first once it has loaded', () => {
    expect(buildTheme(light).typography.fontFamily).not.toContain(CUSTOM_FONT_FAMILY);
    expect(buildTheme(light, { customFont: true }).typography.fontFamily).toMatch(
      new RegExp(`^"${CUSTOM_FONT_FAMILY}"`),
    );
  });
});

describe('motion and focus (accessible by default)', () => {
  it('switches animations and transitions off for visitors who prefer reduced motion', () => {
    const overrides = buildTheme(light).components?.MuiCssBaseline?.styleOverrides as Record<string, unknown>;
    expect(overrides[REDUCED_MOTION]).toEqual({
      '*, *::before, *::after': expect.objectContaining({
        animationDuration: '0.01ms !important',
        transitionDuration: '0.01ms !important',
      }),
    });
  });

  it('outlines the keyboard focus of every button in the page text colour', () => {
    for (const theme of [light, dark]) {
      const root = buildTheme(theme).components?.MuiButtonBase?.styleOverrides?.root;
      expect(root).toEqual({
        '&.Mui-focusVisible': { outline: `2px solid ${theme.appearance.on_background}`, outlineOffset: 2 },
      });
    }
  });

  it('makes buttons at least 44 × 44 px on touch screens', () => {
    const overrides = buildTheme(light).components?.MuiCssBaseline?.styleOverrides as Record<string, unknown>;
    const rules = Object.values(overrides[COARSE_POINTER] as Record<string, unknown>);
    expect(rules).toEqual([{ minWidth: TAP_TARGET, minHeight: TAP_TARGET }]);
    expect(TAP_TARGET).toBe(44);
  });
});
