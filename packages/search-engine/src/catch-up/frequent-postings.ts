/**
 * At a full load, the postings of the catalogue's frequent words are fetched from the text index
 * once and kept in the facet index (frequent-words.ts), when the text index is dear to ask.
 */
import type { Progress } from '../engine-types.ts';
import type { FacetIndex } from '../facet-index/facet-index.ts';
import { FrequentWords, type WordPostings } from '../frequent-words.ts';
import type { TextAtom } from '../query.ts';
import type { TextIndex } from '../text-index.ts';

/** Share of the catalogue a word must be in for its postings to be kept in memory. */
const FREQUENT_SHARE = 0.02;
const FREQUENT_MIN_DOCS = 2000;

/** Fetches the postings of the catalogue's frequent words, when the text index is dear to ask. */
export async function findFrequentWords<Tx>(
  text: TextIndex<Tx>,
  index: FacetIndex,
  frequentMinDocs: number | undefined,
  progress?: Progress,
): Promise<void> {
  if (!text.frequentWords) return;
  const minDocs = Math.max(frequentMinDocs ?? FREQUENT_MIN_DOCS, Math.ceil(index.size * FREQUENT_SHARE));
  const words = await text.frequentWords(minDocs, index.size);
  const postings: (WordPostings | undefined)[] = [];
  let next = 0;
  let fetched = 0;
  // No bar for a catalogue without frequent words (a bar of 0 of 0 has no time left to show).
  if (words.length > 0) progress?.('frequent words', 0, words.length);
  // Two words asked at a time: the database answers each on a core of its own.
  const fetchWords = async (): Promise<void> => {
    for (let i = next++; i < words.length; i = next++) {
      const word = words[i];
      if (word === undefined) break;
      const atom: TextAtom = { kind: 'text', tokens: [word], prefix: false, scope: 'all' };
      const found = text.matchWithTitle
        ? await text.matchWithTitle(atom)
        : { all: await text.match(atom), title: await text.match({ ...atom, scope: 'title' }) };
      // A word the text index only guessed to be frequent (from a sample) is left to the index.
      if (found.all.length >= minDocs) {
        postings[i] = { all: index.docsOf(found.all).slice(), title: index.docsOf(found.title).slice() };
      }
      progress?.('frequent words', ++fetched, words.length);
    }
  };
  await Promise.all([fetchWords(), fetchWords()]);
  index.frequent = new FrequentWords(
    new Map(words.flatMap((w, i): [string, WordPostings][] => (postings[i] ? [[w, postings[i]]] : []))),
  );
}
