import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageIcon } from '../components/icons.tsx';
import { switchLanguage } from './i18n.ts';

/** A language's name in that language itself, as people look for their own language. */
function nativeName(lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
  } catch {
    return lang;
  }
}

/** The header's interface language switch over the configured languages (config visibleLocales). */
export function LanguageSwitch({ locales }: { locales: { lang: string; short: string }[] }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = locales.find((l) => l.lang === i18n.language) ?? { lang: i18n.language, short: i18n.language };
  return (
    <>
      <Button
        color="inherit"
        startIcon={<LanguageIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'language-menu' : undefined}
        aria-label={`${t('global.language')}: ${current.short.toUpperCase()}`}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-tour="language"
      >
        {current.short.toUpperCase()}
      </Button>
      <Menu id="language-menu" anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {locales.map(({ lang }) => (
          <MenuItem
            key={lang}
            lang={lang}
            role="menuitemradio"
            aria-checked={lang === current.lang}
            selected={lang === current.lang}
            onClick={() => {
              setAnchor(null);
              void switchLanguage(i18n, lang);
            }}
          >
            {nativeName(lang)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
