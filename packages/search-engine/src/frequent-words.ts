/**
 * Postings of the catalogue's most frequent words, in memory as sorted document numbers, for the
 * text index that is dear to ask for them (PostgreSQL: a common word means reading a fifth of the
 * table's rows for every first search; SQLite from two million documents, where FTS5 takes most of
 * a second for a word in a fifth of them). Made at a full load from the text index itself, kept in the
 * index snapshot, and kept right as assets change by folding the changed assets' texts the same
 * way the text index is fed (text.ts), so the answer is the text index's answer. Words that become
 * frequent later are found in the text index until the next full load.
 */
import { lowerBound } from './facet-index/doc-sets.ts';
import type { TextAtom } from './query.ts';
import type { TextDocument } from './text-index.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/**
 * The characters of a document's title and body fed to to_tsvector (the server's PostgreSQL text
 * index). A tsvector holds at most 1 MB; one document beyond it failed the whole index update, and
 * every search with it. Worst case (words of one 4-byte letter, each a lexeme of its own) is about
 * 6 bytes of tsvector per character, so 100,000 characters stay well below the limit; text after
 * them is not searchable (the title always is).
 */
export const TSVECTOR_TEXT_CHARS = 100_000;

export interface WordPostings {
  /** Documents with the word anywhere. */
  all: Int32Array<ArrayBuffer>;
  /** Documents with the word in the title. */
  title: Int32Array<ArrayBuffer>;
}

/**
 * A document as the text indexes hold it: its title and, when the text runs beyond
 * TSVECTOR_TEXT_CHARS, the title followed by the body's first characters up to that bound (both
 * databases keep the same words; the title is always searchable).
 */
export function indexedDocument(doc: TextDocument): TextDocument {
  const title = doc.title.slice(0, TSVECTOR_TEXT_CHARS);
  const room = Math.max(TSVECTOR_TEXT_CHARS - title.length, 0);
  return doc.title === title && doc.body.length <= room
    ? doc
    : { id: doc.id, title, body: `${title} ${doc.body.slice(0, room)}` };
}

/** The words of a document as the text indexes hold them (indexedDocument, PostgresTextIndex.write). */
export function documentWords(doc: TextDocument): { all: Set<string>; title: Set<string> } {
  const indexed = indexedDocument(doc);
  const titleWords = new Set(indexed.title.split(' ').filter(Boolean));
  const all = new Set(titleWords);
  for (const w of indexed.body.split(' ')) if (w) all.add(w);
  return { all, title: titleWords };
}

export class FrequentWords {
  constructor(readonly words: Map<string, WordPostings> = new Map()) {}

  /** True when postings of some word are kept (a catch-up then needs the changed texts' words). */
  get kept(): boolean {
    return this.words.size > 0;
  }

  /** The documents matching an atom, when it is one frequent word. */
  match(atom: TextAtom): Int32Array | undefined {
    if (atom.prefix || atom.tokens.length !== 1) return undefined;
    const p = this.words.get(atom.tokens[0]!);
    return p && (atom.scope === 'title' ? p.title : p.all);
  }

  /**
   * Puts changed documents right: `changed` (ascending document numbers) lose every word, then get
   * those of their current text (`texts`: a live document's words; absent ones left the text index).
   * `step` runs before each word (a word's postings are rewritten whole: other work runs between).
   */
  async update(
    changed: Int32Array,
    texts: Map<number, { all: Set<string>; title: Set<string> }>,
    step: () => Promise<void> = async () => {},
  ): Promise<void> {
    if (changed.length === 0) return;
    for (const [word, postings] of this.words) {
      await step();
      const withAll: number[] = [];
      const withTitle: number[] = [];
      for (const d of changed) {
        const t = texts.get(d);
        if (t?.all.has(word)) withAll.push(d);
        if (t?.title.has(word)) withTitle.push(d);
      }
      postings.all = replaceDocs(postings.all, changed, withAll);
      postings.title = replaceDocs(postings.title, changed, withTitle);
    }
  }
}

/**
 * `docs` without the `changed` ones, plus `now` (ascending, a subset of `changed`). The same array
 * when no changed document came or went: a word in every one of ten million documents was copied
 * whole for each change, over 100 ms of the event loop for its two lists. Else the runs between
 * the changed documents are copied in one piece each.
 */
function replaceDocs(docs: Int32Array<ArrayBuffer>, changed: Int32Array, now: number[]): Int32Array<ArrayBuffer> {
  // Where each changed document stands in `docs`, and whether any of them came or went.
  const at = new Int32Array(changed.length);
  let differs = false;
  let from = 0;
  let k = 0;
  for (let i = 0; i < changed.length; i++) {
    const d = changed[i]!;
    from = lowerBound(docs, d, from);
    at[i] = from;
    const had = from < docs.length && docs[from] === d;
    const has = k < now.length && now[k] === d;
    if (has) k++;
    if (had !== has) differs = true;
  }
  if (!differs) return docs;
  const acc = new Int32Array(docs.length + now.length);
  let n = 0;
  from = 0;
  k = 0;
  for (let i = 0; i < changed.length; i++) {
    const d = changed[i]!;
    const p = at[i]!;
    acc.set(docs.subarray(from, p), n);
    n += p - from;
    from = p < docs.length && docs[p] === d ? p + 1 : p;
    if (k < now.length && now[k] === d) acc[n++] = now[k++]!;
  }
  acc.set(docs.subarray(from), n);
  n += docs.length - from;
  return n === acc.length ? acc : acc.slice(0, n);
}
