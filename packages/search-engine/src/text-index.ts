import type { TextAtom } from './query.ts';

/** One asset as the full-text index stores it: folded tokens of its title and of all its text. */
export interface TextDocument {
  id: number;
  title: string;
  body: string;
}

/**
 * The full-text half of the search engine, one implementation per database (FTS5, tsvector). It
 * answers which assets contain a word, a prefix or a phrase; everything else (AND/OR/NOT, facets,
 * visibility, sorting) happens in memory on those answers, identically for both databases. `Tx`:
 * the host's transaction, in which texts are written (see ports.ts).
 */
export interface TextIndex<Tx = unknown> {
  /**
   * Writes and removes documents with `executor` (the caller's transaction); `fresh`: none of `docs`
   * is in the index yet, so there is nothing of them to replace.
   */
  write(docs: readonly TextDocument[], removed: readonly number[], executor: Tx, fresh?: boolean): Promise<void>;
  /** Removes every document (before a full load). */
  clear(executor: Tx): Promise<void>;
  /** Ascending ids of the assets matching one atom. */
  match(atom: TextAtom): Promise<Int32Array>;
  /**
   * For an atom searched everywhere, its matches and among them those in the title (relevance
   * needs both) in one read, where the database can do that cheaper than two.
   */
  matchWithTitle?(atom: TextAtom): Promise<{ all: Int32Array; title: Int32Array }>;
  /**
   * Words likely in at least `minDocs` documents, where fetching their matches is dear enough that
   * the engine keeps them in memory (see frequent-words.ts). A large index may answer from a sample
   * of its documents: the list then holds some words a little below the bound, which the engine
   * drops once it has their matches. `documents`: about how many documents the index holds.
   */
  frequentWords?(minDocs: number, documents?: number): Promise<string[]>;
}

/** Parses the comma-joined id list both databases aggregate matches into, ascending. */
export function parseIdList(text: string | null | undefined): Int32Array {
  if (!text) return new Int32Array(0);
  const out = new Int32Array(Math.ceil(text.length / 2) + 1);
  let n = 0;
  let v = 0;
  let sorted = true;
  let prev = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c === 44) {
      if (v < prev) sorted = false;
      prev = v;
      out[n++] = v;
      v = 0;
    } else v = v * 10 + (c - 48);
  }
  const ids = out.subarray(0, n);
  return sorted ? ids : ids.sort();
}
