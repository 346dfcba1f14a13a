import { describe, expect, it } from 'vitest';
import { parseQuery, positiveTextAtoms, QuerySyntaxError } from './query.ts';
import { fold, indexText, tokenize } from './text.ts';

const fields = (f: string) => ['creator', 'rating'].includes(f);
const word = (w: string, prefix = false) => ({ kind: 'text', tokens: [w], prefix, scope: 'all' });

describe('text folding (shared by both engines)', () => {
  it('folds case, diacritics and German letters', () => {
    expect(fold('Straße MÜNCHEN Crème')).toBe('strasse munchen creme');
    expect(tokenize("Anna's e-mail: ÆON_2024!")).toEqual(['anna', 's', 'e', 'mail', 'aeon', '2024']);
    expect(indexText(['Hafen', 'Boot'])).toBe('hafen boot');
  });

  it('cuts very long tokens so every database can index them', () => {
    expect(tokenize('x'.repeat(500))[0]).toHaveLength(64);
  });
});

describe("query language of solr_q (ARCHITECTURE §4 'GET search')", () => {
  it("'*', empty and punctuation-only queries find everything", () => {
    expect(parseQuery('*', fields)).toEqual({ kind: 'all' });
    expect(parseQuery('  ', fields)).toEqual({ kind: 'all' });
    expect(parseQuery('!!', fields)).toEqual({ kind: 'all' });
  });

  it('words are ANDed; prefix*, "phrases" and -exclude are atoms', () => {
    expect(parseQuery('Red car*', fields)).toEqual({ kind: 'and', items: [word('red'), word('car', true)] });
    expect(parseQuery('"red car" -blue', fields)).toEqual({
      kind: 'and',
      items: [
        { kind: 'text', tokens: ['red', 'car'], prefix: false, scope: 'all' },
        { kind: 'not', item: word('blue') },
      ],
    });
    // An unclosed quote runs to the end rather than failing.
    expect(parseQuery('"red car', fields)).toEqual({
      kind: 'text',
      tokens: ['red', 'car'],
      prefix: false,
      scope: 'all',
    });
  });

  it('OR binds looser than AND; parentheses group', () => {
    expect(parseQuery('a b OR c', fields)).toEqual({
      kind: 'or',
      items: [{ kind: 'and', items: [word('a'), word('b')] }, word('c')],
    });
    expect(parseQuery('(a OR b) c', fields)).toEqual({
      kind: 'and',
      items: [{ kind: 'or', items: [word('a'), word('b')] }, word('c')],
    });
    expect(parseQuery('a OR *', fields)).toEqual({ kind: 'all' });
  });

  it('field:value needs a declared field; title: searches titles', () => {
    expect(parseQuery('creator:"Anna M"*', fields)).toEqual({
      kind: 'field',
      field: 'creator',
      tokens: ['anna', 'm'],
      prefix: true,
      raw: 'Anna M',
    });
    expect(parseQuery('title:dog', fields)).toEqual({ kind: 'text', tokens: ['dog'], prefix: false, scope: 'title' });
    expect(() => parseQuery('lens:50mm', fields)).toThrow(QuerySyntaxError);
  });

  it('unbalanced parentheses are syntax errors', () => {
    expect(() => parseQuery('(a', fields)).toThrow(QuerySyntaxError);
    expect(() => parseQuery('a)', fields)).toThrow(QuerySyntaxError);
  });

  it('only positive text atoms count for relevance', () => {
    const atoms = positiveTextAtoms(parseQuery('a -b (c OR rating:5)', fields));
    expect(atoms.map((a) => a.tokens[0])).toEqual(['a', 'c']);
  });
});
