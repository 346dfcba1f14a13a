import { asRead, leavesPortal } from './outside-urls.ts';

/** Something in an uploaded style sheet that would reach outside the portal, with its line (from 1). */
export interface StyleSheetProblem {
  line: number;
  what: string;
}

const HEX = /^[0-9a-fA-F]$/;
const IDENT = /^[-_a-zA-Z0-9\u0080-\uffff]$/;
const ADDRESS = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:[/\\]{2}|[/\\]{2}|(?:https?|ftp|blob|file):)/i;

/**
 * Reads a style sheet as CSS tokenises it (comments, strings, escapes, `url(` with or without
 * quotes) and answers every `@import` and every URL that leaves the portal. An uploaded style sheet
 * is loaded on the portal's pages; one that may fetch from elsewhere can send what a page shows or
 * what someone types (attribute selectors) to another server, so only the portal's own files and
 * `data:` URLs are allowed. Quoted strings elsewhere that read as an address are refused too, as
 * `image-set("…")` fetches them without `url(`.
 */
export function styleSheetProblems(css: string): StyleSheetProblem[] {
  const problems: StyleSheetProblem[] = [];
  let i = 0;
  let line = 1;
  const at = (k = 0) => css.charAt(i + k);

  /** One escape after the backslash at i (CSS Syntax §4.3.7); moves past it. */
  const escape = (): string => {
    i++;
    let hex = '';
    while (hex.length < 6 && HEX.test(at())) hex += css.charAt(i++);
    if (hex) {
      if (/^[ \t\n]$/.test(at())) {
        if (at() === '\n') line++;
        i++;
      }
      const code = parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\ufffd'
        : String.fromCodePoint(code);
    }
    const c = at();
    i++;
    return c;
  };

  const identifier = (): string => {
    let name = '';
    while (i < css.length) {
      if (at() === '\\' && at(1) !== '\n') name += escape();
      else if (IDENT.test(at())) name += css.charAt(i++);
      else break;
    }
    return name;
  };

  const quoted = (): string => {
    const quote = css.charAt(i++);
    let value = '';
    while (i < css.length && at() !== quote && at() !== '\n') {
      if (at() === '\\') {
        if (at(1) === '\n') {
          i += 2;
          line++;
        } else value += escape();
      } else value += css.charAt(i++);
    }
    if (at() === quote) i++;
    return value;
  };

  /** The argument of `url(` without quotes, up to its `)`. */
  const bareUrl = (): string => {
    let value = '';
    while (i < css.length && at() !== ')') {
      if (at() === '\\') value += escape();
      else {
        if (at() === '\n') line++;
        value += css.charAt(i++);
      }
    }
    return value.trim();
  };

  while (i < css.length) {
    const c = at();
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && at(1) === '*') {
      const end = css.indexOf('*/', i + 2);
      const stop = end === -1 ? css.length : end + 2;
      for (const ch of css.slice(i, stop)) if (ch === '\n') line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const start = line;
      const value = quoted();
      if (ADDRESS.test(asRead(value))) problems.push({ line: start, what: `"${value}"` });
    } else if (c === '@') {
      i++;
      const start = line;
      if (identifier().toLowerCase() === 'import') problems.push({ line: start, what: '@import' });
    } else if (c === '\\' || IDENT.test(c)) {
      const start = line;
      const name = identifier();
      if (name === '' && c === '\\') i++;
      if (name.toLowerCase() === 'url' && at() === '(') {
        i++;
        while (/^[ \t\n]$/.test(at())) {
          if (at() === '\n') line++;
          i++;
        }
        const value = at() === '"' || at() === "'" ? quoted() : bareUrl();
        if (leavesPortal(value)) problems.push({ line: start, what: `url(${value})` });
      }
    } else {
      i++;
    }
  }
  return problems;
}
