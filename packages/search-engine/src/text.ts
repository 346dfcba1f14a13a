/**
 * Text folding shared by both search engines: the engines only ever see lower-case ASCII-ish tokens
 * separated by spaces, so SQLite FTS5 and PostgreSQL tsvector tokenise them identically and a query
 * finds the same assets on either database. Folding removes case and diacritics and spells German
 * letters the way people type them without a German keyboard (ß → ss, ä → a), so "Strasse" finds
 * "Straße" and "Munchen" finds "München".
 */
const special: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', þ: 'th' };

/** Longest token kept; longer runs (hashes, base64) are cut so PostgreSQL's lexeme limit is never hit. */
export const MAX_TOKEN_LENGTH = 64;

export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđłþ]/g, (c) => special[c] ?? c);
}

/** The tokens of a text: runs of letters and digits after folding. */
export function tokenize(text: string): string[] {
  const tokens = fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return tokens.map((t) => (t.length > MAX_TOKEN_LENGTH ? t.slice(0, MAX_TOKEN_LENGTH) : t));
}

/** A text as the engines index it. */
export function indexText(parts: readonly string[]): string {
  return parts.flatMap(tokenize).join(' ');
}
