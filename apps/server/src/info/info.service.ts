import { setTimeout as sleep } from 'node:timers/promises';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import type { Language } from '@vitrine/contract/info';
import type { ConfigService } from '../config/config.service.ts';
import { notReady } from '../http/errors.ts';
import type { InfoRepository } from './info.repository.ts';

/** Language names in English and German; other display languages fall back to English. */
const knownLanguages: Record<string, { en: string; de: string }> = {
  de: { en: 'German', de: 'Deutsch' },
  en: { en: 'English', de: 'Englisch' },
  fr: { en: 'French', de: 'Französisch' },
  es: { en: 'Spanish', de: 'Spanisch' },
  it: { en: 'Italian', de: 'Italienisch' },
  nl: { en: 'Dutch', de: 'Niederländisch' },
  pl: { en: 'Polish', de: 'Polnisch' },
  pt: { en: 'Portuguese', de: 'Portugiesisch' },
  cs: { en: 'Czech', de: 'Tschechisch' },
  da: { en: 'Danish', de: 'Dänisch' },
  sv: { en: 'Swedish', de: 'Schwedisch' },
  fi: { en: 'Finnish', de: 'Finnisch' },
};

/** How long the database may take to answer a readiness check. */
const READY_DATABASE_TIMEOUT_MS = 2000;

export class InfoService {
  constructor(
    private readonly repository: InfoRepository,
    private readonly config: Pick<ConfigService, 'languages'>,
    private readonly search: { readonly loaded: boolean } = { loaded: true },
  ) {}

  version(): { version: string } {
    return { version: BACKEND_VERSION };
  }

  async health(): Promise<{ status: 'ok'; database: 'sqlite' | 'postgres'; version: string }> {
    return { status: 'ok', database: await this.repository.ping(), version: BACKEND_VERSION };
  }

  /** Readiness: the search index is loaded and the database answers in time; else 503 unavailable. */
  async ready(): Promise<{ status: 'ready'; database: 'sqlite' | 'postgres'; version: string }> {
    const missing: { path: string; message: string }[] = [];
    if (!this.search.loaded) missing.push({ path: 'search', message: 'The search index is still loading.' });
    const waited = new AbortController();
    const database = await Promise.race([
      this.repository.ping().catch(() => undefined),
      sleep(READY_DATABASE_TIMEOUT_MS, undefined, { signal: waited.signal }).catch(() => undefined),
    ]);
    waited.abort();
    if (!database) missing.push({ path: 'database', message: 'The database did not answer in time.' });
    if (!database || missing.length > 0) {
      throw notReady(`Not ready: ${missing.map((m) => m.message).join(' ')}`, missing);
    }
    return { status: 'ready', database, version: BACKEND_VERSION };
  }

  /** The configured interface and content languages, named in the display language. */
  async languages(displayLang: string | undefined): Promise<Language[]> {
    const { ui: uiLanguages, content: contentLanguages, names } = await this.config.languages();
    const codes = [...new Set([...uiLanguages, ...contentLanguages])];
    const lang = displayLang === 'de' ? 'de' : 'en';
    return codes.map((code) => ({
      code,
      name: knownLanguages[code]?.[lang] ?? names[code] ?? code,
      ui: uiLanguages.includes(code),
      content: contentLanguages.includes(code),
    }));
  }
}
