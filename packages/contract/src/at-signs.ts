import type { MessageSet } from './config.ts';

/** A literal at-sign in a text, in the message syntax where a bare `@` starts a linked message. */
export const ESCAPED_AT = "{'@'}";

/** Escapes bare at-signs in every text (texts below 6.0.0 were written when `@` was not special). */
export function escapeAtSigns(texts: MessageSet): MessageSet {
  return Object.fromEntries(
    Object.entries(texts).map(([k, v]) => [
      k,
      typeof v === 'string' ? v.replace(/\{'@'\}|@/g, ESCAPED_AT) : escapeAtSigns(v),
    ]),
  );
}

/** Shows escaped at-signs as the at-signs they stand for. */
export function unescapeAtSigns(text: string): string {
  return text.split(ESCAPED_AT).join('@');
}
