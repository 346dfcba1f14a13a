import { BOOT_DATA_ELEMENT_ID, type BootData } from '@vitrine/contract/boot';

let read: BootData | null | undefined;

/**
 * The first screen's config and texts that the portal's page carries (config/app-page.ts on the
 * server), or null when the page has none or they are not whole (the app then asks the server, as it
 * does in development and in tests). Read once.
 */
export function bootData(): BootData | null {
  if (read !== undefined) return read;
  const text = document.getElementById(BOOT_DATA_ELEMENT_ID)?.textContent;
  let parsed: BootData | null = null;
  if (text) {
    try {
      const value = JSON.parse(text) as Partial<BootData> | null;
      // Written by the server with the calls' own answers; only its presence is checked.
      if (value?.config && value.files && Array.isArray(value.locales) && value.messages) parsed = value as BootData;
    } catch {
      // Not JSON: the calls answer instead.
    }
  }
  read = parsed;
  return read;
}

/** Forgets what was read (tests that put a page's boot data in place). */
export function forgetBootData(): void {
  read = undefined;
}
