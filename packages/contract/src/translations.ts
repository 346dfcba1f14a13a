import type { MessageSet } from './config.ts';

/**
 * The bundled interface texts. The server serves them as the translation sets until an admin edits
 * them; text keys follow the specs (e.g. views.search.tags.error, toast.login.unauthorized).
 */
export const defaultTranslations: Record<'de' | 'en', MessageSet> = {
  en: {
    global: {
      required: 'This field is required.',
      separator: ' | ',
      navigated_to: 'Navigated to {{title}}',
      loading: 'Loading…',
      skip_to_content: 'Skip to content',
      language: 'Language',
    },
    views: {
      dashboard: { title: 'Home' },
      login: { title: 'Log in' },
      logout: { title: 'Logged out' },
      search: { title: 'Search', tags: { error: 'Unknown filter' } },
      asset: { title: 'Asset' },
      bookmark: { title: 'Bookmarks' },
      custom: { title: 'Information' },
      admin: {
        title: 'Administration',
        general: 'General',
        appearance: 'Appearance',
        dashboard: 'Dashboard',
        search: 'Search settings',
        language: 'Language settings',
        login: 'Login',
        editor: 'Own pages',
      },
    },
    toast: { login: { unauthorized: 'Account has no authorization' } },
  },
  de: {
    global: {
      required: 'Dieses Feld ist ein Pflichtfeld.',
      separator: ' | ',
      navigated_to: 'Navigiert zu {{title}}',
      loading: 'Wird geladen…',
      skip_to_content: 'Zum Inhalt springen',
      language: 'Sprache',
    },
    views: {
      dashboard: { title: 'Startseite' },
      login: { title: 'Anmelden' },
      logout: { title: 'Abgemeldet' },
      search: { title: 'Suche', tags: { error: 'Unbekannter Filter' } },
      asset: { title: 'Asset' },
      bookmark: { title: 'Merkliste' },
      custom: { title: 'Informationen' },
      admin: {
        title: 'Administration',
        general: 'Allgemein',
        appearance: 'Erscheinungsbild',
        dashboard: 'Startseite',
        search: 'Sucheinstellungen',
        language: 'Spracheinstellungen',
        login: 'Anmeldung',
        editor: 'Eigene Seiten',
      },
    },
    toast: { login: { unauthorized: 'Der Account hat keine Berechtigung' } },
  },
};
