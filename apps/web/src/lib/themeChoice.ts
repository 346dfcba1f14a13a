/** Where the visitor's choice of theme is kept (no MUI: the page's first paint reads it too). */
const THEME_KEY = 'theme';

/** The theme the visitor chose, or null for the portal's default. */
export function storedThemeKey(): string | null {
  return localStorage.getItem(THEME_KEY);
}

export function storeThemeKey(key: string): void {
  localStorage.setItem(THEME_KEY, key);
}
