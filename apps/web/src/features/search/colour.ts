/**
 * The query language's terms the search page shows as tags (issue #52): the colour term
 * `colour:#rrggbb` and the look-alike term `similar:<assetId>`, at most one of each in a search.
 */
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

/** The query language's look-alike term (issue #52): `similar:<assetId>`, at most one in a search. */
const SIMILAR = /(^|\s)similar:(\d+)(?=\s|$)/i;
const SIMILARS = /(^|\s+)similar:\d+(?=\s|$)/gi;

/** The asset a search's text asks for look-alikes of (its id). */
export function similarOf(text: string): string | undefined {
  return SIMILAR.exec(text)?.[2];
}

/** The text with its look-alike term replaced by one of `id` (or taken out); the rest kept. */
export function withSimilar(text: string, id: string | undefined): string {
  const rest = text.replace(SIMILARS, '').trim();
  const words = rest === '*' ? '' : rest;
  if (!id) return words;
  return [words, `similar:${id}`].filter(Boolean).join(' ');
}

/**
 * The words of a search's text, without its colour and look-alike terms: what the search box and the
 * results heading show, each of those terms being shown as a tag of its own.
 */
export function wordsOf(text: string): string {
  return withSimilar(withColour(text, undefined), undefined);
}

/**
 * The search text of the box's words with the route's colour and look-alike terms kept; a term the
 * visitor typed into the box takes the place of the route's.
 */
export function withRouteTerms(words: string, routeText: string): string {
  const colour = colourOf(words) ?? colourOf(routeText);
  const similar = similarOf(words) ?? similarOf(routeText);
  return withSimilar(withColour(words, colour), similar);
}
