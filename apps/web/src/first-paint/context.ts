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
      textIn: texts.textIn,
      lang,
      fallbackLang: boot.config.fallback_locale,
      fields: boot.fields ?? [],
      fileSizeBase: boot.config.global.file_size_base,
    },
  };
}

export const esc = escapeMarkup;

/** A Material icon as the app draws it (components/icons.tsx PlainIcon: 20 px, the current colour). */
export const iconMarkup = (path: string, size = 20) =>
  `<svg viewBox="0 0 24 24" width="${size}" height="${size}" fill="currentColor" aria-hidden="true"><path d="${path}"/></svg>`;

/**
 * A text button's place as the app draws it (app/controls.css, components/TextButton.tsx): medium
 * or small, outlined or not, with an icon before its label; the first paint is not interactive, so
 * it is no button.
 */
export function buttonMarkup(
  label: string,
  options: { small?: boolean; outlined?: boolean; disabled?: boolean; icon?: string; className?: string } = {},
): string {
  const classes = [
    'vt-button',
    options.small && 'vt-button-small',
    options.outlined && 'vt-button-outlined',
    options.className,
  ]
    .filter(Boolean)
    .join(' ');
  const icon = options.icon ? `<span class="vt-button-icon">${iconMarkup(options.icon)}</span>` : '';
  return `<span class="${classes}"${options.disabled ? ' data-disabled=""' : ''}>${icon}${esc(label)}</span>`;
}
