/** The query language's colour term (issue #52): `colour:#rrggbb`, at most one in a search. */
const TERM = /(^|\s)colou?r:#([0-9a-f]{6})(?=\s|$)/i;
const TERMS = /(^|\s)colou?r:#[0-9a-f]{6}(?=\s|$)/gi;

/** The colour a search's text asks for, as `#rrggbb` in lower case. */
export function colourOf(text: string): string | undefined {
  const m = TERM.exec(text);
  return m ? `#${(m[2] ?? '').toLowerCase()}` : undefined;
}

/** The text with its colour term replaced by `colour` (or taken out); the rest of the text kept. */
export function withColour(text: string, colour: string | undefined): string {
  const rest = text.replace(TERMS, ' ').trim();
  const words = rest === '*' ? '' : rest;
  if (!colour) return words;
  return [words, `colour:${colour.toLowerCase()}`].filter(Boolean).join(' ');
}
