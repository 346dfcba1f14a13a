import { IconButton } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { PaletteIcon } from '../components/icons.tsx';
import { IconTooltip } from '../components/IconTooltip.tsx';
import { useHeaderMenu } from './headerMenu.ts';
import { useThemeChoice } from './Providers.tsx';

const ChoiceMenu = lazy(() => import('./ShellMenus.tsx').then((m) => ({ default: m.ChoiceMenu })));

/** Theme selection, offered when the config's show_theme_selection is set. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const choice = useThemeChoice();
  const { trigger, menu } = useHeaderMenu('theme-menu');
  if (!choice.selectable || choice.options.length < 2) return null;
  return (
    <>
      <IconTooltip title={t('global.theme')}>
        <IconButton color="inherit" aria-label={t('global.theme')} {...trigger}>
          <PaletteIcon />
        </IconButton>
      </IconTooltip>
      {menu && (
        <Suspense fallback={null}>
          <ChoiceMenu
            menu={menu}
            choices={choice.options.map((theme) => ({
              key: theme.key,
              label: t(theme.translation, { defaultValue: theme.key }),
            }))}
            current={choice.current.key}
            onChoose={(key) => choice.choose(key)}
          />
        </Suspense>
      )}
    </>
  );
}
