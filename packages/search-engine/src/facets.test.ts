import { describe, expect, it } from 'vitest';
import { CodeColumn } from './facet-index/code-column.ts';
import { countValuesInSteps, firstInOrder, makeSets, type Selection } from './facets.ts';
import type { IndexView } from './index-view.ts';

/** The part of a view a count uses: whether the documents are a caller's whole catalogue, and its cache. */
function viewOf(whole: string | undefined) {
  const kept = new Map<string, unknown>();
  const view = {
    wholeCatalogueOf: () => whole,
    kept: (key: string) => kept.get(key),
    keep: (key: string, value: unknown) => kept.set(key, value),
  } as unknown as IndexView;
  return { view, kept };
}

describe('facet counts of a search (issue #31: the event loop at ten million)', () => {
  const size = 600_000;
  const col = new CodeColumn();
  for (let d = 0; d < size; d++) col.push(d % 3 === 0 ? ['a', 'b'] : d % 3 === 1 ? ['b'] : []);
  col.pack();
  const docs = Int32Array.from({ length: size }, (_, d) => d);
  const once = new Int32Array(col.values.length);
  col.count(docs, once);

  it('counts a large set in parts with a step between them, to the same counts as in one go', async () => {
    let steps = 0;
    const { view } = viewOf(undefined);
    const counts = await countValuesInSteps(view, 'keywords', col, docs, async () => {
      steps++;
    });
    expect(Array.from(counts)).toEqual(Array.from(once));
    expect(Array.from(counts)).toEqual([200_000, 400_000]);
    // 600,000 documents in parts of 262,144: two steps between three parts.
    expect(steps).toBe(2);
  });

  it("keeps the counts over a caller's whole catalogue with the view: the next search counts nothing", async () => {
    let steps = 0;
    const step = async () => {
      steps++;
    };
    const { view, kept } = viewOf('public');
    const first = await countValuesInSteps(view, 'keywords', col, docs, step);
    expect([...kept.keys()]).toEqual(['counts keywords public']);
    const again = await countValuesInSteps(view, 'keywords', col, docs, step);
    expect(again).toBe(first);
    expect(steps).toBe(2);
  });
});

describe('the values of a facet page in order (portal-spec §7 "GET search": facet values by count)', () => {
  it('puts the first values of thousands in the same order as sorting them all', () => {
    // Counts with many ties; the tie-break (value order) makes the order total, as facets have.
    const counts = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 41);
    const compare = (a: number, b: number) => counts[b]! - counts[a]! || a - b;
    const all = [...counts.keys()].sort(compare);
    for (const first of [0, 1, 5, 100, 1499, 1500, 3000, 5000]) {
      expect(firstInOrder([...counts.keys()].reverse(), compare, first)).toEqual(all.slice(0, first));
    }
  });
});

describe('the sets the first search of an index version makes (issue #31: the event loop after a change)', () => {
  /** A view of `size` documents whose visible documents and bit sets are made when asked, as IndexView's. */
  function setsView(size: number, visible: number) {
    const events: string[] = [];
    let visibleSet = false;
    const view = {
      index: { size },
      visibleAllInSteps: async () => {
        events.push('visible documents');
        return new Int32Array(visible);
      },
      visibleBitSet: (_groups: readonly string[], make: boolean) => {
        if (!make) return visibleSet ? new Uint32Array(0) : undefined;
        events.push('visible set');
        visibleSet = true;
        return new Uint32Array(0);
      },
    } as unknown as IndexView;
    const filter = (name: string): Selection => {
      let made = false;
      return {
        field: { field_name: name } as Selection['field'],
        bit: 1,
        keeps: () => true,
        made: () => made,
        docsIn: () => {
          events.push(`set of ${name}`);
          made = true;
          return new Uint32Array(0);
        },
      };
    };
    const step = async () => {
      events.push('step');
    };
    return { view, events, filter, step };
  }

  it('makes each with a step before it, and nothing the view keeps already', async () => {
    const { view, events, filter, step } = setsView(1_000_000, 800_000);
    const filters = [filter('category'), filter('file_size')];
    await makeSets(view, ['public'], new Int32Array(200_000), filters, step);
    expect(events).toEqual([
      'visible documents',
      'step',
      'visible set',
      'step',
      'set of category',
      'step',
      'set of file_size',
    ]);
    events.length = 0;
    await makeSets(view, ['public'], new Int32Array(200_000), filters, step);
    expect(events).toEqual([]);
  });

  it('leaves the sets a few matches would not use to the tests one by one', async () => {
    const { view, events, filter, step } = setsView(1_000_000, 800_000);
    // 1,000 matches: a sixteenth of the index is worth a pass over it, a thousandth is not.
    await makeSets(view, ['public'], new Int32Array(1000), [filter('category')], step);
    expect(events).toEqual([]);
    // The whole catalogue (a search without words): its visible documents, then the filter's set.
    await makeSets(view, ['public'], undefined, [filter('category')], step);
    expect(events).toEqual(['visible documents', 'step', 'set of category']);
  });
});
