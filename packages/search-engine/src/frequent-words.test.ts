import { describe, expect, it } from 'vitest';
import { FrequentWords, type WordPostings } from './frequent-words.ts';

const words = (all: string[], title: string[] = []) => ({ all: new Set(all), title: new Set(title) });

describe("frequent words' postings kept in memory", () => {
  it('follow changed documents: words they gained and lost, whatever the order of the lists', async () => {
    // Random postings over 2,000 documents, changed in random documents, against a plain rewrite.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const docs = Array.from({ length: 2000 }, (_, d) => d);
    const sea = docs.filter(() => random() < 0.6);
    const ship = docs.filter(() => random() < 0.05);
    const postings = (list: number[]): WordPostings => ({ all: Int32Array.from(list), title: Int32Array.from(list) });
    const frequent = new FrequentWords(
      new Map([
        ['sea', postings(sea)],
        ['ship', postings(ship)],
      ]),
    );
    const changed = docs.filter(() => random() < 0.1);
    const texts = new Map(
      changed.filter(() => random() < 0.9).map((d) => [d, words(random() < 0.5 ? ['sea'] : ['ship', 'sea'], ['sea'])]),
    );
    await frequent.update(Int32Array.from(changed), texts);
    const gone = new Set(changed);
    const expected = (list: number[], word: string, part: 'all' | 'title') =>
      [...list.filter((d) => !gone.has(d)), ...[...texts].filter(([, t]) => t[part].has(word)).map(([d]) => d)].sort(
        (a, b) => a - b,
      );
    const sea2 = frequent.words.get('sea')!;
    const ship2 = frequent.words.get('ship')!;
    expect(Array.from(sea2.all)).toEqual(expected(sea, 'sea', 'all'));
    expect(Array.from(sea2.title)).toEqual(expected(sea, 'sea', 'title'));
    expect(Array.from(ship2.all)).toEqual(expected(ship, 'ship', 'all'));
    expect(Array.from(ship2.title)).toEqual(expected(ship, 'ship', 'title'));
  });

  it('keep the same lists when no changed document gained or lost the word (a word in every document is not copied)', async () => {
    const every = Int32Array.from({ length: 1000 }, (_, d) => d);
    const title = Int32Array.from([3, 5]);
    const frequent = new FrequentWords(new Map([['harbour', { all: every, title }]]));
    // Documents 3 and 5 changed, and still have the word where they had it.
    await frequent.update(
      Int32Array.from([3, 5]),
      new Map([
        [3, words(['harbour', 'crane'], ['harbour'])],
        [5, words(['harbour'], ['harbour'])],
      ]),
    );
    expect(frequent.words.get('harbour')!.all).toBe(every);
    expect(frequent.words.get('harbour')!.title).toBe(title);
    // Document 5 loses it from its title only.
    await frequent.update(Int32Array.from([5]), new Map([[5, words(['harbour'])]]));
    expect(frequent.words.get('harbour')!.all).toBe(every);
    expect(Array.from(frequent.words.get('harbour')!.title)).toEqual([3]);
  });
});
