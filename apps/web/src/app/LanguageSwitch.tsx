import { Button } from '@mui/material';
import { lazy, Suspense } from 'react';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { useTranslation } from '../lib/translate.tsx';
import { LanguageIcon } from '../components/icons.tsx';
import { useHeaderMenu } from './headerMenu.ts';
import { switchLanguage } from '../stores/i18n.ts';

const ChoiceMenu = lazy(() => import('./ShellMenus.tsx').then((m) => ({ default: m.ChoiceMenu })));

/** A language's name in that language itself, as people look for their own language. */
function nativeName(lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
  } catch {
    return lang;
  }
}

/** The header's interface language switch over the configured languages (config visibleLocales). */
export function LanguageSwitch({ locales }: { locales: GlobalConfig['visibleLocales'] }) {
  const { t, i18n } = useTranslation();
  const { trigger, menu } = useHeaderMenu('language-menu');
  const current = locales.find((l) => l.lang === i18n.language) ?? { lang: i18n.language, short: i18n.language };
  return (
    <>
      <Button
        color="inherit"
        startIcon={<LanguageIcon />}
        {...trigger}
        aria-label={`${t('global.language')}: ${current.short.toUpperCase()}`}
        data-tour="language"
      >
        {current.short.toUpperCase()}
      </Button>
      {menu && (
        <Suspense fallback={null}>
          <ChoiceMenu
            menu={menu}
            choices={locales.map(({ lang }) => ({ key: lang, label: nativeName(lang), lang }))}
            current={current.lang}
            onChoose={(lang) => void switchLanguage(i18n, lang)}
          />
        </Suspense>
      )}
    </>
  );
}
