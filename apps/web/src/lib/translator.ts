import { unescapeAtSigns } from '@vitrine/contract/at-signs';
import { FALLBACK_LOCALE } from '@vitrine/contract/languages';

/*
 * The portal's texts: message sets per language (the server's, an admin's edits over the bundled
 * ones), looked up by dot path with `{{name}}` placeholders and a fallback language. A numeric
 * `count` picks the language's plural form as i18next does: `key_one`, `key_other` (the categories
 * of `Intl.PluralRules`), else the plain key. The API keeps the names of react-i18next's
 * (`useTranslation`, `t`, `i18n.language`) but only what the portal uses, so the first screen's
 * JavaScript stays small.
 */

export interface Messages {
  [key: string]: string | Messages | undefined;
}

export interface TOptions {
  /** The text when the key has none in either language. */
  defaultValue?: string;
  [placeholder: string]: unknown;
}

export type TFunction = (key: string, options?: TOptions) => string;

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

function lookup(messages: Messages | undefined, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Puts the options' values into the `{{name}}` placeholders; a placeholder without a value stays. */
export function interpolate(text: string, values: TOptions | undefined): string {
  if (!values || !text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) return match;
    // Numbers and booleans read as they are written; objects as JSON.
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function merge(target: Messages, source: Messages): Messages {
  const out: Messages = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const old = out[key];
    out[key] =
      value !== null && typeof value === 'object' && old !== null && typeof old === 'object'
        ? merge(old, value)
        : value;
  }
  return out;
}

export interface TranslatorOptions {
  language: string;
  fallbackLanguage: string;
  messages: Record<string, Messages>;
  /** Applied to every text returned. */
  postProcess?: (text: string) => string;
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The plural category of `count` in `lang` ('one', 'other', …). */
function pluralCategory(lang: string, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang);
    pluralRules.set(lang, rules);
  }
  return rules.select(count);
}

/** The key's text in one language: its plural form for `count` first, when a count is given. */
function lookupIn(messages: Messages | undefined, lang: string, key: string, count: unknown): string | undefined {
  if (typeof count === 'number') {
    const plural = lookup(messages, `${key}_${pluralCategory(lang, count)}`);
    if (plural !== undefined) return plural;
  }
  return lookup(messages, key);
}

export class Translator {
  language: string;
  readonly fallbackLanguage: string;
  private messages = new Map<string, Messages>();
  private readonly listeners = new Set<() => void>();
  private readonly postProcess: (text: string) => string;
  /** Translates in the current language; a new function after each language change. */
  t: TFunction;

  constructor(options: TranslatorOptions) {
    this.language = options.language;
    this.fallbackLanguage = options.fallbackLanguage;
    this.postProcess = options.postProcess ?? ((text) => text);
    for (const [lang, messages] of Object.entries(options.messages)) this.messages.set(lang, messages);
    this.t = this.translatorFor();
  }

  /** The key's text in `lang`, else in the fallback language. */
  private find(lang: string, key: string, count?: unknown): string | undefined {
    const fallback = this.fallbackLanguage;
    return (
      lookupIn(this.messages.get(lang), lang, key, count) ?? lookupIn(this.messages.get(fallback), fallback, key, count)
    );
  }

  private translatorFor(): TFunction {
    const lang = this.language;
    return (key, options) =>
      this.postProcess(interpolate(this.find(lang, key, options?.count) ?? options?.defaultValue ?? key, options));
  }

  /** Whether the key has a text in the current or the fallback language. */
  exists(key: string): boolean {
    return this.find(this.language, key) !== undefined;
  }

  /** The key's text in `lang` alone, without the fallback language and without placeholders filled. */
  textIn = (lang: string, key: string): string | undefined => {
    const text = lookup(this.messages.get(lang), key);
    return text === undefined ? undefined : this.postProcess(text);
  };

  /** Adds texts of a language over the ones it has. */
  addMessages(lang: string, messages: Messages): void {
    this.messages.set(lang, merge(this.messages.get(lang) ?? {}, messages));
    if (lang === this.language || lang === this.fallbackLanguage) this.changed();
  }

  changeLanguage(lang: string): void {
    if (lang === this.language) return;
    this.language = lang;
    this.changed();
  }

  /** Calls `listener` after each change of the language or its texts; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed() {
    this.t = this.translatorFor();
    for (const listener of this.listeners) listener();
  }
}

/**
 * The portal's translator over these texts, in `language` with English to fall back on. Texts
 * written before 6.0.0 had their at-signs escaped by the text migration (`{'@'}`, admin-spec §4); a
 * visitor reads the at-sign. Every text goes through here, so no component has to know.
 */
export const portalTranslator = (language: string, messages: Record<string, Messages>) =>
  new Translator({ language, fallbackLanguage: FALLBACK_LOCALE, messages, postProcess: unescapeAtSigns });
