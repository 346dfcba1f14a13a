import { Dialog, MenuItem, Select, ThemeProvider } from '@mui/material';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { defaultThemes } from '@vitrine/contract/config-defaults';
import type { ThemeConfig } from '@vitrine/contract/global-config';
import { buildTheme } from './theme.ts';

const light = defaultThemes.find((t) => t.key === 'light') as ThemeConfig;

const zIndexOf = (el: Element | null) => (el ? Number(getComputedStyle(el).zIndex) : NaN);

describe('layers (portal-spec §9: dialog z-index 2400)', () => {
  it('puts a dialog at 2400 and a menu opened inside it above it', async () => {
    const user = userEvent.setup();
    render(
      <ThemeProvider theme={buildTheme(light)}>
        <Dialog open>
          <Select value="a" aria-label="Set" MenuProps={{ transitionDuration: 0 }}>
            <MenuItem value="a">Original</MenuItem>
            <MenuItem value="b">Web JPEG</MenuItem>
          </Select>
        </Dialog>
      </ThemeProvider>,
    );
    const dialog = screen.getByRole('dialog').closest('.MuiDialog-root');
    expect(zIndexOf(dialog)).toBe(2400);
    await user.click(screen.getByRole('combobox', { name: 'Set' }));
    const menu = (await screen.findByRole('listbox')).closest('.MuiPopover-root');
    expect(zIndexOf(menu)).toBeGreaterThanOrEqual(2400);
    // Opened later, the menu comes after the dialog in the page, so at the same z-index it is on top.
    expect(dialog?.compareDocumentPosition(menu as Node)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });

  it('keeps notices and tooltips above dialogs', () => {
    const theme = buildTheme(light);
    expect(theme.zIndex.snackbar).toBeGreaterThan(2400);
    expect(theme.zIndex.tooltip).toBeGreaterThan(theme.zIndex.snackbar);
  });
});
