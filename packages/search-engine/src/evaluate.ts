import { nearColour, partHashesOf, similarTo, type Closeness } from './alike.ts';
import { LruCache } from './cache.ts';
import { filterDocs, pause } from './engine-types.ts';
import { docsOfBitSet, intersect, subtract, union } from './facet-index/doc-sets.ts';
import type { IndexView } from './index-view.ts';
import { parseNumber } from './facets.ts';
import type { QueryNode, TextAtom, VisualAtom } from './query.ts';
import { tokenize } from './text.ts';
import type { TextIndex } from './text-index.ts';

/** Bounds of the text cache: entries and the bytes of the document lists held. */
export const TEXT_CACHE = { entries: 4096, bytes: 32 * 1024 * 1024 };

/**
 * Text matches of the full-text index as document numbers of an index version. Kept until the
 * index changes: paging through a result (infinite scroll) and refining it with facets repeat the
 * same words, and fetching the ids of a common word is the dearest part of a search.
 */
export class TextMatches {
  private readonly cache: LruCache<string, Int32Array>;

  constructor(
    private readonly text: TextIndex,
    limits: { entries: number; bytes: number } = TEXT_CACHE,
  ) {
    this.cache = new LruCache(limits);
  }

  async match(view: IndexView, atom: TextAtom): Promise<Int32Array> {
    const frequent = view.index.frequent?.match(atom);
    if (frequent) return frequent;
    const key = `${view.version}|${atomKey(atom)}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (atom.scope === 'all' && this.text.matchWithTitle) {
      // Relevance asks for the title matches next: both come from one read.
      const { all, title } = await this.text.matchWithTitle(atom);
      const docs = view.index.docsOf(all);
      this.cache.set(key, docs);
      this.cache.set(`${view.version}|${atomKey({ ...atom, scope: 'title' })}`, view.index.docsOf(title));
      return docs;
    }
    const docs = view.index.docsOf(await this.text.match(atom));
    this.cache.set(key, docs);
    // SQLite answers synchronously: a word in a fifth of a million documents takes some 40 ms, and
    // a search asks for its title matches next. Other requests run in between.
    await pause();
    return docs;
  }

  /** Entries and bytes held. */
  get held(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.cache.bytes };
  }

  clear(): void {
    this.cache.clear();
  }
}

const atomKey = (atom: TextAtom): string => `${atom.scope}|${atom.prefix ? 1 : 0}|${atom.tokens.join(' ')}`;

/** Evaluates one query tree over one index view; each atom is fetched once per search. */
export class QueryEvaluator {
  private readonly atoms = new Map<string, Promise<Int32Array>>();

  constructor(
    private readonly view: IndexView,
    private readonly text: TextMatches,
    /** The caller's access groups: similar: answers nothing for an asset the caller may not see. */
    private readonly groups: readonly string[] = [],
    /** The asked asset's part hashes (the host's, when it keeps them): similar:'s second tier. */
    private readonly partsOf?: (id: number) => Promise<string[]>,
    /** Lets other work run between slices of a long walk. */
    private readonly step?: () => Promise<void>,
  ) {}

  /**
   * The documents a similar: or colour: term matches with their distances (ascending documents).
   * Kept with the view: paging and refining with facets ask for the same ones again.
   */
  async closeness(atom: VisualAtom): Promise<Closeness> {
    const view = this.view;
    const visual = view.index.visual;
    if (atom.kind === 'colour') {
      return view.cached(`colour ${atom.lab.join(' ')}`, () => nearColour(visual, atom.lab));
    }
    const doc = view.index.docOf(atom.id);
    const caller = view.callerMasks(this.groups);
    // An asset the caller may not see is answered as an unknown one: no results, no error.
    if (doc === -1 || !view.index.visible(doc, caller))
      return { docs: new Int32Array(0), distance: new Float32Array(0) };
    const key = `similar ${doc}`;
    const kept = view.kept<Promise<Closeness>>(key);
    if (kept) return kept;
    // Read before the walk is kept, so that a failed read is not kept with the view.
    const parts = visual.has(doc) && this.partsOf ? partHashesOf(await this.partsOf(atom.id)) : undefined;
    // Who may see which look-alike is the caller's visibility, applied with every other filter.
    return view.cached(key, () => similarTo(visual, doc, (d) => view.index.active[d] === 1, parts, this.step));
  }

  async evaluate(node: QueryNode): Promise<Int32Array> {
    switch (node.kind) {
      case 'all':
        return this.view.allDocs();
      case 'text':
        return this.matchText(node);
      case 'field':
        return this.matchField(node.field, node.tokens, node.prefix, node.raw);
      case 'similar':
      case 'colour':
        return (await this.closeness(node)).docs;
      case 'not':
        return subtract(this.view.allDocs(), await this.evaluate(node.item));
      case 'or': {
        let acc: Int32Array = new Int32Array(0);
        for (const item of node.items) acc = union(acc, await this.evaluate(item));
        return acc;
      }
      case 'and': {
        const positives = node.items.filter((n) => n.kind !== 'not');
        const negatives = node.items.flatMap((n) => (n.kind === 'not' ? [n.item] : []));
        const sets = await Promise.all(positives.map((n) => this.evaluate(n)));
        sets.sort((a, b) => a.length - b.length);
        let acc = sets[0] ?? this.view.allDocs();
        for (const s of sets.slice(1)) acc = intersect(acc, s);
        for (const n of negatives) if (acc.length > 0) acc = subtract(acc, await this.evaluate(n));
        return acc;
      }
    }
  }

  matchText(atom: TextAtom): Promise<Int32Array> {
    const key = atomKey(atom);
    let found = this.atoms.get(key);
    if (!found) {
      found = this.text.match(this.view, atom);
      this.atoms.set(key, found);
    }
    return found;
  }

  private async matchField(name: string, tokens: string[], prefix: boolean, raw: string): Promise<Int32Array> {
    const view = this.view;
    const field = view.fields.get(name)!;
    if (!field.coded) {
      const value = parseNumber(raw, field.type === 'date');
      const col = view.index.numbers.get(name)!;
      return filterDocs(view.allDocs(), (d) => col.get(d) === value);
    }
    // field:value is text search: it matches a value in any content language.
    let acc: Int32Array = new Int32Array(0);
    for (const col of view.columns(name)) {
      const wanted = new Uint8Array(col.values.length);
      let any = false;
      col.values.forEach((value, code) => {
        if (containsTokens(tokenize(value), tokens, prefix)) {
          wanted[code] = 1;
          any = true;
        }
      });
      if (!any) continue;
      // The column's documents of those values in one pass (in parts, with other work between),
      // read off the bit set a word at a time: testing each document's codes looked every one up
      // among those changed since packing (after an edit of 5,000 assets, one such search held the
      // event loop 50–125 ms at a million), and a bit test of every document took 25 ms at ten million.
      const bits = this.step
        ? await col.docsWithInSteps(wanted, view.index.size, this.step)
        : col.docsWith(wanted, view.index.size);
      acc = union(acc, docsOfBitSet(bits));
    }
    return acc;
  }
}

/** True when `words` holds `wanted` as a consecutive run (the last one as a prefix if asked). */
function containsTokens(words: readonly string[], wanted: readonly string[], prefix: boolean): boolean {
  // Indexes stay within both lists (i + wanted.length <= words.length, j <= last): the assertions hold.
  const last = wanted.length - 1;
  for (let i = 0; i + wanted.length <= words.length; i++) {
    let ok = true;
    for (let j = 0; j <= last && ok; j++) {
      const w = words[i + j]!;
      ok = prefix && j === last ? w.startsWith(wanted[j]!) : w === wanted[j];
    }
    if (ok) return true;
  }
  return false;
}
