import { parseHexColour } from './alike.ts';
import { tokenize } from './text.ts';

/**
 * The query language of `solr_q` (ARCHITECTURE §4): `*` for everything, words ANDed, "phrases",
 * prefix*, -exclude, OR, parentheses and field:value for declared fields. The parser knows nothing
 * of databases; the engine evaluates the tree with set operations over asset ids, so both engines
 * share one meaning of every query.
 */
export type QueryNode =
  | { kind: 'all' }
  | { kind: 'and'; items: QueryNode[] }
  | { kind: 'or'; items: QueryNode[] }
  | { kind: 'not'; item: QueryNode }
  | TextAtom
  | FieldAtom
  | VisualAtom;

/**
 * similar:<assetId> (pictures that look like that asset's) and colour:#rrggbb (pictures with a
 * dominant colour near it; also color:, #rgb): matched on the index's visual signatures.
 */
export type VisualAtom =
  { kind: 'similar'; id: number } | { kind: 'colour'; lab: [number, number, number]; hex: string };

/** The query terms that match visual signatures, whatever index fields exist. */
const VISUAL_TERMS = new Set(['similar', 'colour', 'color']);

/** Words found by the full-text index; several tokens form a phrase. */
export interface TextAtom {
  kind: 'text';
  tokens: string[];
  prefix: boolean;
  /** 'title' restricts the match to titles (title:…); 'all' searches every text field. */
  scope: 'all' | 'title';
}

/** field:value on a declared field; matched against the field's values, not the text index. */
export interface FieldAtom {
  kind: 'field';
  field: string;
  tokens: string[];
  prefix: boolean;
  /** The value as typed, for numeric fields. */
  raw: string;
}

export class QuerySyntaxError extends Error {}

type Token =
  | { t: 'word'; text: string; quoted: boolean; field?: string; neg: boolean }
  | { t: 'or' }
  | { t: 'open'; neg: boolean }
  | { t: 'close' };

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input.charAt(i);
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let neg = false;
    if ((c === '-' || c === '!') && i + 1 < input.length && !/\s/.test(input.charAt(i + 1))) {
      neg = true;
      i++;
    }
    const d = input[i];
    if (d === '(') {
      out.push({ t: 'open', neg });
      i++;
      continue;
    }
    if (d === ')') {
      out.push({ t: 'close' });
      i++;
      continue;
    }
    let field: string | undefined;
    const fieldMatch = /^([A-Za-z][A-Za-z0-9_]{0,63}):(?=\S)/.exec(input.slice(i));
    if (fieldMatch) {
      field = fieldMatch[1];
      i += fieldMatch[0].length;
    }
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1);
      // An unclosed quote runs to the end of the query: people type that, it is not an error.
      const text = input.slice(i + 1, end === -1 ? input.length : end);
      i = end === -1 ? input.length : end + 1;
      const star = input[i] === '*';
      if (star) i++;
      out.push({ t: 'word', text: star ? `${text}*` : text, quoted: true, field, neg });
      continue;
    }
    let j = i;
    while (j < input.length && !/[\s()"]/.test(input.charAt(j))) j++;
    const text = input.slice(i, j);
    i = j;
    if (!field && !neg && text === 'OR') out.push({ t: 'or' });
    else if (text.length > 0) out.push({ t: 'word', text, quoted: false, field, neg });
  }
  return out;
}

function visualAtom(field: string, text: string): VisualAtom {
  if (field === 'similar') {
    if (!/^[0-9]{1,10}$/.test(text) || Number(text) > 0x7fffffff) {
      throw new QuerySyntaxError(`'similar:' needs an asset id (a whole number), not '${text}'.`);
    }
    return { kind: 'similar', id: Number(text) };
  }
  const lab = parseHexColour(text);
  if (!lab || !text.startsWith('#')) {
    throw new QuerySyntaxError(
      `'${field}:${text}' is not a colour: write it as '#' and 6 or 3 hexadecimal digits, e.g. '${field}:#ff0000' or '${field}:#f00'.`,
    );
  }
  const digits = text.slice(1).toLowerCase();
  const hex = `#${digits.length === 3 ? [...digits].map((c) => c + c).join('') : digits}`;
  return { kind: 'colour', lab, hex };
}

function atom(word: Extract<Token, { t: 'word' }>, fieldExists: (f: string) => boolean): QueryNode | undefined {
  if (word.field !== undefined && VISUAL_TERMS.has(word.field.toLowerCase())) {
    const node = visualAtom(word.field.toLowerCase(), word.text);
    return word.neg ? { kind: 'not', item: node } : node;
  }
  const prefix = word.text.endsWith('*');
  const tokens = tokenize(prefix ? word.text.slice(0, -1) : word.text);
  if (word.field === undefined && word.text === '*') return { kind: 'all' };
  if (tokens.length === 0) return undefined;
  let node: QueryNode;
  if (word.field === undefined) node = { kind: 'text', tokens, prefix, scope: 'all' };
  else if (word.field === 'title') node = { kind: 'text', tokens, prefix, scope: 'title' };
  else if (fieldExists(word.field))
    node = { kind: 'field', field: word.field, tokens, prefix, raw: prefix ? word.text.slice(0, -1) : word.text };
  else throw new QuerySyntaxError(`The field '${word.field}' does not exist, so '${word.field}:' cannot be searched.`);
  return word.neg ? { kind: 'not', item: node } : node;
}

/**
 * Parses a query; `fieldExists` says which names may appear before a colon. Throws
 * QuerySyntaxError for an unknown field or unbalanced parentheses.
 */
export function parseQuery(input: string, fieldExists: (field: string) => boolean): QueryNode {
  const tokens = lex(input);
  let pos = 0;

  const parseOr = (depth: number): QueryNode => {
    const alternatives: QueryNode[] = [parseAnd(depth)];
    while (tokens[pos]?.t === 'or') {
      pos++;
      alternatives.push(parseAnd(depth));
    }
    const real = alternatives.filter((a) => !(a.kind === 'and' && a.items.length === 0));
    if (real.some((a) => a.kind === 'all')) return { kind: 'all' };
    const [first, ...rest] = real;
    if (!first) return { kind: 'and', items: [] };
    return rest.length === 0 ? first : { kind: 'or', items: real };
  };

  const parseAnd = (depth: number): QueryNode => {
    const items: QueryNode[] = [];
    for (;;) {
      const tok = tokens[pos];
      if (!tok || tok.t === 'or') break;
      if (tok.t === 'close') {
        if (depth === 0) throw new QuerySyntaxError("The query has a ')' without a matching '('.");
        break;
      }
      pos++;
      if (tok.t === 'open') {
        const inner = parseOr(depth + 1);
        if (tokens[pos]?.t !== 'close') throw new QuerySyntaxError("The query has a '(' without a matching ')'.");
        pos++;
        items.push(tok.neg ? { kind: 'not', item: inner } : inner);
        continue;
      }
      const node = atom(tok, fieldExists);
      if (node) items.push(node);
    }
    const meaningful = items.filter((n) => n.kind !== 'all');
    const [first, ...rest] = meaningful;
    if (!first) return items.length > 0 ? { kind: 'all' } : { kind: 'and', items: [] };
    return rest.length === 0 ? first : { kind: 'and', items: meaningful };
  };

  const tree = parseOr(0);
  if (pos < tokens.length) throw new QuerySyntaxError("The query has a ')' without a matching '('.");
  // An empty query (only punctuation) finds everything, like '*'.
  return tree.kind === 'and' && tree.items.length === 0 ? { kind: 'all' } : tree;
}

/** Text atoms that raise relevance: the positive ones. */
export function positiveTextAtoms(node: QueryNode): TextAtom[] {
  switch (node.kind) {
    case 'text':
      return [node];
    case 'and':
    case 'or':
      return node.items.flatMap(positiveTextAtoms);
    case 'all':
    case 'not':
    case 'field':
    case 'similar':
    case 'colour':
      return [];
  }
}

/** similar: and colour: terms that narrow the results (not under '-'): the results are ranked by them. */
export function positiveVisualAtoms(node: QueryNode): VisualAtom[] {
  switch (node.kind) {
    case 'similar':
    case 'colour':
      return [node];
    case 'and':
    case 'or':
      return node.items.flatMap(positiveVisualAtoms);
    case 'all':
    case 'not':
    case 'field':
    case 'text':
      return [];
  }
}

/** Words and phrases of a query (text and field:value), and how many of them are prefixes. */
export function queryTerms(node: QueryNode): { terms: number; prefixes: number } {
  switch (node.kind) {
    case 'text':
    case 'field':
      return { terms: 1, prefixes: node.prefix ? 1 : 0 };
    case 'similar':
    case 'colour':
      return { terms: 1, prefixes: 0 };
    case 'and':
    case 'or':
      return node.items
        .map(queryTerms)
        .reduce((a, b) => ({ terms: a.terms + b.terms, prefixes: a.prefixes + b.prefixes }), {
          terms: 0,
          prefixes: 0,
        });
    case 'not':
      return queryTerms(node.item);
    case 'all':
      return { terms: 0, prefixes: 0 };
  }
}
