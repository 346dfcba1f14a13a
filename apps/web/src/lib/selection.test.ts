import { describe, expect, it } from 'vitest';
import { nextSelection } from './selection.ts';

const plain = { shiftKey: false, ctrlKey: false, metaKey: false };
const ctrl = { ...plain, ctrlKey: true };
const meta = { ...plain, metaKey: true };
const shift = { ...plain, shiftKey: true };

describe('portal-spec §4 Selection (search results and bookmark list)', () => {
  const order = ['a', 'b', 'c', 'd', 'e', 'f'];

  it('plain click replaces, ctrl/meta click toggles', () => {
    expect(nextSelection(['a', 'b'], order, 'c', plain)).toEqual(['c']);
    expect(nextSelection(['a'], order, 'c', ctrl)).toEqual(['a', 'c']);
    expect(nextSelection(['a', 'c'], order, 'a', meta)).toEqual(['c']);
  });

  it('shift click selects the range to the nearest selected item in result order', () => {
    expect(nextSelection(['b'], order, 'e', shift)).toEqual(['b', 'c', 'd', 'e']);
    // Nearest of a and f to d is f: only e is between.
    expect(nextSelection(['a', 'f'], order, 'd', shift)).toEqual(['a', 'f', 'd', 'e']);
    expect(nextSelection([], order, 'c', shift)).toEqual(['c']);
  });

  it('keeps the order in which items were chosen, the range after them', () => {
    expect(nextSelection(['e'], order, 'c', shift)).toEqual(['e', 'c', 'd']);
    expect(nextSelection(['d', 'a'], order, 'f', shift)).toEqual(['d', 'a', 'e', 'f']);
  });

  it('keeps selected items that are no longer in the list when a range is added', () => {
    expect(nextSelection(['x', 'b'], order, 'd', shift)).toEqual(['x', 'b', 'c', 'd']);
    // Nothing selected is listed: the clicked item is added, nothing is lost.
    expect(nextSelection(['x'], order, 'c', shift)).toEqual(['x', 'c']);
    expect(nextSelection(['x'], order, 'x', shift)).toEqual(['x']);
  });
});
