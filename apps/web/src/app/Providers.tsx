import { CssBaseline, ThemeProvider, useMediaQuery } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { pickTheme } from '@vitrine/contract/config-defaults';
import type { ThemeConfig } from '@vitrine/contract/global-config';
import { configKeys, useGlobalConfig } from '../stores/config.ts';
import { onCallerChange } from '../stores/session.ts';
import { useCustomFont } from '../stores/customAssets.ts';
import { buildTheme, storedThemeKey, storeThemeKey } from '../lib/theme.ts';
import { TranslationProvider, type Translator } from '../lib/translate.tsx';

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } });
}

interface ThemeChoice {
  current: ThemeConfig;
  options: ThemeConfig[];
  selectable: boolean;
  choose(key: string): void;
}

const ThemeChoiceContext = createContext<ThemeChoice | null>(null);

/** The theme in use and, when the config allows it, the means to choose another. */
export function useThemeChoice(): ThemeChoice {
  const choice = useContext(ThemeChoiceContext);
  if (!choice) throw new Error('useThemeChoice needs <Providers>');
  return choice;
}

/** Applies the config's theme: the chosen one, else the default for the browser's colour scheme. */
function ConfiguredTheme({ children }: { children: ReactNode }) {
  const { config } = useGlobalConfig();
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const [chosen, setChosen] = useState(storedThemeKey);
  const customFont = useCustomFont();
  const current = pickTheme(config, chosen, prefersDark);
  const theme = useMemo(() => buildTheme(current, { customFont }), [current, customFont]);
  const choice = useMemo<ThemeChoice>(
    () => ({
      current,
      options: config.themes.options,
      selectable: config.themes.show_theme_selection,
      choose: (key) => {
        storeThemeKey(key);
        setChosen(key);
      },
    }),
    [current, config.themes],
  );
  return (
    <ThemeChoiceContext.Provider value={choice}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeChoiceContext.Provider>
  );
}

export function Providers({
  i18n,
  queryClient,
  children,
}: {
  i18n: Translator;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  // Answers fetched for another caller are dropped; the config is the same for everyone.
  useEffect(
    () =>
      onCallerChange(() => {
        void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== configKeys.all[0] });
      }),
    [queryClient],
  );
  return (
    <TranslationProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ConfiguredTheme>{children}</ConfiguredTheme>
      </QueryClientProvider>
    </TranslationProvider>
  );
}
