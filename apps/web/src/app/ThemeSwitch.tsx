import { IconButton } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaletteIcon } from '../components/icons.tsx';
import { useThemeChoice } from './Providers.tsx';

const ChoiceMenu = lazy(() => import('./ShellMenus.tsx').then((m) => ({ default: m.ChoiceMenu })));

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
      {anchor && (
        <Suspense fallback={null}>
          <ChoiceMenu
            id="theme-menu"
            anchor={anchor}
            choices={choice.options.map((theme) => ({
              key: theme.key,
              label: t(theme.translation, { defaultValue: theme.key }),
            }))}
            current={choice.current.key}
            onChoose={(key) => choice.choose(key)}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
