import type { FooterEntry } from '@vitrine/contract/global-config';
import type { TFunction } from './translate.tsx';

/** The footer's year range starts in 2020 (portal-spec §9). */
export const COPYRIGHT_START_YEAR = 2020;

export function yearRange(now: Date = new Date()): string {
  const year = now.getFullYear();
  return year > COPYRIGHT_START_YEAR ? `${COPYRIGHT_START_YEAR}–${year}` : String(COPYRIGHT_START_YEAR);
}

/**
 * An entry's text in the language: what an admin wrote for it, else its translation (the copyright's
 * with the year range and the website title).
 */
export function footerText(entry: FooterEntry, lang: string, t: TFunction, title: string): string {
  const own = entry.labels?.[lang]?.trim();
  if (own) return own;
  return entry.translation ? t(entry.translation, { range: yearRange(), title }) : '';
}
