import type { SuggestionGroup } from '@vitrine/contract/search';
import { compareText, SearchInputError } from './engine-types.ts';
import type { CodeColumn } from './facet-index/code-column.ts';
import { lowerBound } from './facet-index/doc-sets.ts';
import { countValues } from './facets.ts';
import type { IndexView } from './index-view.ts';
import { fold, tokenize } from './text.ts';

const SUGGESTION_DOCS = 50;

/** Values of the given fields that contain words starting with the typed text. */
export function suggest(
  view: IndexView,
  groups: readonly string[],
  text: string,
  fields: readonly string[],
  preview: number,
  lang?: string,
  only?: readonly number[],
  /** Fields the caller may not see: they have no values to suggest. */
  hidden?: ReadonlySet<string>,
): SuggestionGroup[] {
  for (const name of fields) {
    if (hidden?.has(name) || !view.fields.get(name)?.coded) {
      throw new SearchInputError('fields', `The field '${name}' has no values to suggest.`);
    }
  }
  const [first, ...more] = tokenize(text);
  if (first === undefined) return [];
  return fields.map((name) => {
    const columnName = view.columnName(name, lang);
    const col = view.column(name, lang);
    // Over the whole visible catalogue these are the counts of the facet (kept with the view).
    const counts = countValues(view, columnName, col, only ? view.visibleOf(groups, only) : view.visibleAll(groups));
    const { tokens, codes } = view.cached(`tokens ${columnName}`, () => tokenList(col));
    let lo = lowerBound(tokens, first);
    const candidates = new Set<number>();
    // Codes and tokens index the column's own lists (lo < tokens.length): the assertions below hold.
    for (; lo < tokens.length && tokens[lo]!.startsWith(first); lo++) candidates.add(codes[lo]!);
    const matches = [...candidates].filter(
      (c) => counts[c]! > 0 && more.every((t) => tokenize(col.values[c]!).some((v) => v.startsWith(t))),
    );
    matches.sort(
      (a, b) =>
        counts[b]! - counts[a]! ||
        compareText(fold(col.values[a]!), fold(col.values[b]!)) ||
        compareText(col.values[a]!, col.values[b]!),
    );
    const docs = matches.slice(0, SUGGESTION_DOCS).flatMap((c) => {
      const value = col.values[c];
      return value === undefined ? [] : [{ value, label: view.label(name, value) ?? value }];
    });
    return { field_name: name, docs, preview: Math.min(preview, docs.length), total: matches.length };
  });
}

/** Every word of every value of a column, sorted, with the value's code beside it. */
function tokenList(col: CodeColumn): { tokens: string[]; codes: Int32Array } {
  const pairs: [string, number][] = [];
  col.values.forEach((v, code) => {
    for (const t of new Set(tokenize(v))) pairs.push([t, code]);
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  return { tokens: pairs.map((p) => p[0]), codes: Int32Array.from(pairs, (p) => p[1]) };
}
