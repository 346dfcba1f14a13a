import { describe, expect, it } from 'vitest';
import { FacetIndex } from '../facet-index/facet-index.ts';
import type { TextAtom } from '../query.ts';
import type { TextIndex } from '../text-index.ts';
import { findFrequentWords } from './frequent-postings.ts';

/** A text index of three documents (ids 1–3) in which `sea` is in all and `ship` in one. */
const text: TextIndex = {
  write: async () => undefined,
  clear: async () => undefined,
  match: async (atom: TextAtom) => Int32Array.from(atom.tokens[0] === 'sea' ? [1, 2, 3] : [2]),
  frequentWords: async (minDocs) => (minDocs <= 3 ? ['sea'] : []),
};

function indexOfThree(): FacetIndex {
  const index = new FacetIndex([], [], []);
  for (const id of [1, 2, 3]) index.put({ id, active: true, access: ['public'], codes: {}, numbers: {}, strings: {} });
  index.pack();
  return index;
}

// A full load's progress (bench-data's bars, the server's log) names the frequent words' phase only
// when there are words to fetch.
describe('frequent words at a full load', () => {
  it('report their phase word by word when the catalogue has some', async () => {
    const phases: [string, number, number][] = [];
    const index = indexOfThree();
    await findFrequentWords(text, index, 3, (phase, done, total) => phases.push([phase, done, total]));
    expect(phases).toEqual([
      ['frequent words', 0, 1],
      ['frequent words', 1, 1],
    ]);
    expect([...(index.frequent?.words.keys() ?? [])]).toEqual(['sea']);
  });

  it('report no phase when the catalogue has none', async () => {
    const phases: [string, number, number][] = [];
    await findFrequentWords(text, indexOfThree(), 4, (phase, done, total) => phases.push([phase, done, total]));
    expect(phases).toEqual([]);
  });
});
