import type { MessageSet } from './config.ts';
import de from './translations/de.json' with { type: 'json' };
import en from './translations/en.json' with { type: 'json' };

/**
 * The bundled interface texts, one JSON file per language in `translations/`. The server serves them
 * as the translation sets until an admin edits them; text keys follow the specs (e.g.
 * views.search.tags.error, toast.login.unauthorized). Groups: admin, global, toast, views, metadata
 * (admin-spec §3 "Translation set"). Where the specs quote a text, it is used verbatim.
 */
export const defaultTranslations: Record<'de' | 'en', MessageSet> = { en, de };
