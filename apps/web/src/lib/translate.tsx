import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { TFunction, Translator } from './translator.ts';

// The texts themselves (no React): lib/translator.ts, which the page's first-paint script uses too.
export * from './translator.ts';

const TranslatorContext = createContext<Translator | null>(null);

export function TranslationProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={i18n}>{children}</TranslatorContext.Provider>;
}

/** The `t` of the current language (components draw again when it changes) and the translator. */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  const i18n = useContext(TranslatorContext);
  if (!i18n) throw new Error('useTranslation needs a TranslationProvider above it');
  const t = useSyncExternalStore(i18n.subscribe, () => i18n.t);
  return { t, i18n };
}
