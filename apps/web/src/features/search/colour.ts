/** The query language's colour term (issue #52): `colour:#rrggbb`, at most one in a search. */
const TERM = /(^|\s)colou?r:#([0-9a-f]{6})(?=\s|$)/i;
// A term with the space before it, so taking it out leaves one space between the words around it.
const TERMS = /(^|\s+)colou?r:#[0-9a-f]{6}(?=\s|$)/gi;

/** The colour a search's text asks for, as `#rrggbb` in lower case. */
export function colourOf(text: string): string | undefined {
  const m = TERM.exec(text);
  return m ? `#${(m[2] ?? '').toLowerCase()}` : undefined;
}

/** The text with its colour term replaced by `colour` (or taken out); the rest of the text kept. */
export function withColour(text: string, colour: string | undefined): string {
  const rest = text.replace(TERMS, '').trim();
  const words = rest === '*' ? '' : rest;
  if (!colour) return words;
  return [words, `colour:${colour.toLowerCase()}`].filter(Boolean).join(' ');
}

/**
 * The words of a search's text, without its colour term: what the search box and the results heading
 * show, the colour being shown as a tag of its own.
 */
export function wordsOf(text: string): string {
  return withColour(text, undefined);
}
