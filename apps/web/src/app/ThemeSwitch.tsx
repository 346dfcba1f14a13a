import { IconButton, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaletteIcon } from '../components/icons.tsx';
import { useThemeChoice } from './Providers.tsx';

/** Theme selection, offered when the config's show_theme_selection is set. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const choice = useThemeChoice();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!choice.selectable || choice.options.length < 2) return null;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('global.theme')}
        title={t('global.theme')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'theme-menu' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <PaletteIcon />
      </IconButton>
      <Menu id="theme-menu" anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {choice.options.map((theme) => (
          <MenuItem
            key={theme.key}
            role="menuitemradio"
            aria-checked={theme.key === choice.current.key}
            selected={theme.key === choice.current.key}
            onClick={() => {
              setAnchor(null);
              choice.choose(theme.key);
            }}
          >
            {t(theme.translation, { defaultValue: theme.key })}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
