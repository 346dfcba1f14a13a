import { setTimeout as sleep } from 'node:timers/promises';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import type { Language } from '@vitrine/contract/info';
import type { ConfigService } from '../config/config.service.ts';
import { notReady } from '../http/errors.ts';
import type { InfoRepository } from './info.repository.ts';

/** Every ISO 639-1 code the runtime's language data names (about 190). */
const isoLanguageCodes: readonly string[] = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  const codes: string[] = [];
  for (let a = 97; a <= 122; a++) {
    for (let b = 97; b <= 122; b++) {
      const code = String.fromCharCode(a, b);
      if (names.of(code)) codes.push(code);
    }
  }
  return codes;
})();

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
  /**
   * The portal's languages (interface and content), then every other ISO 639-1 language. The portal's
   * own are named as an admin named them, else like the others: in `displayLang` (English by default)
   * by the runtime's language data, else by their code.
   */
  async languages(displayLang: string | undefined): Promise<Language[]> {
    const { ui: uiLanguages, content: contentLanguages, names } = await this.config.languages();
    const configured = [...new Set([...uiLanguages, ...contentLanguages])];
    const display = new Intl.DisplayNames([displayLang ?? 'en', 'en'], { type: 'language', fallback: 'none' });
    const others = isoLanguageCodes
      .filter((code) => !configured.includes(code))
      .map((code) => ({ code, name: display.of(code) ?? code, ui: false, content: false }))
      .sort((x, y) => x.name.localeCompare(y.name, displayLang ?? 'en'));
    return [
      ...configured.map((code) => ({
        code,
        name: names[code] ?? display.of(code) ?? code,
        ui: uiLanguages.includes(code),
        content: contentLanguages.includes(code),
      })),
      ...others,
    ];
  }
}
