import type { BootData } from '@vitrine/contract/boot';
import { escapeMarkup } from '@vitrine/contract/markup';
import type { FieldTextContext } from '../lib/fieldText.ts';
import { portalTranslator, type TFunction } from '../lib/translator.ts';

/** What the first paint draws with: the page's config and texts in the language the app will pick. */
export interface PaintContext {
  boot: BootData;
  lang: string;
  t: TFunction;
  /** Asset fields as text, as the app's formatter writes them (lib/fieldText.ts). */
  fields: FieldTextContext;
}

export function paintContext(boot: BootData, lang: string): PaintContext {
  const texts = portalTranslator(lang, boot.messages);
  return {
    boot,
    lang,
    t: texts.t,
    fields: {
      t: texts.t,
      exists: (key) => texts.exists(key),
      lang,
      fallbackLang: boot.config.fallback_locale,
      fields: boot.fields ?? [],
      fileSizeBase: boot.config.global.file_size_base,
    },
  };
}

export const esc = escapeMarkup;

/** A Material icon as the app draws it in a button (20 px, the current colour). */
export const iconMarkup = (path: string) =>
  `<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true"><path d="${path}"/></svg>`;

/**
 * A button's place as MUI draws it (app/firstPaint.css `.vt-fp-button`): a text button, medium or
 * small, outlined or not, with an icon before its label; the first paint is not interactive.
 */
export function buttonMarkup(
  label: string,
  options: { small?: boolean; outlined?: boolean; disabled?: boolean; icon?: string } = {},
): string {
  const classes = ['vt-fp-button', options.small && 'vt-fp-small', options.outlined && 'vt-fp-outlined']
    .filter(Boolean)
    .join(' ');
  const icon = options.icon ? `<span class="vt-fp-button-icon">${iconMarkup(options.icon)}</span>` : '';
  return `<span class="${classes}"${options.disabled ? ' data-disabled=""' : ''}>${icon}${esc(label)}</span>`;
}
