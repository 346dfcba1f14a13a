import { act, renderHook } from '@testing-library/react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AssetDoc } from '@vitrine/contract/search';
import { useResultSelection, useSearchView } from './useResultSelection.ts';
import { useSidebarWidth } from './useResultsLayout.ts';

const doc = (id: string) => ({ id }) as AssetDoc;
const docs = ['1', '2', '3'].map(doc);
const plain = { shiftKey: false, ctrlKey: false, metaKey: false };
const key = (k: string) => ({ key: k }) as ReactKeyboardEvent<HTMLElement>;

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('the active asset and the selection (portal-spec §4 "Active asset", "Selection")', () => {
  it('a click selects an asset and opens its panel; a second click closes the panel', () => {
    const { result } = renderHook(() => useResultSelection('a', docs));
    act(() => result.current.onItemClick(doc('2'), plain));
    expect(result.current.activeId).toBe('2');
    expect(result.current.selected).toEqual(['2']);
    act(() => result.current.onItemClick(doc('2'), plain));
    expect(result.current.activeId).toBeNull();
  });

  it('a Ctrl click adds to the selection without opening a panel, in the order chosen', () => {
    const { result } = renderHook(() => useResultSelection('a', docs));
    act(() => result.current.onItemClick(doc('3'), { ...plain, ctrlKey: true }));
    act(() => result.current.onItemClick(doc('1'), { ...plain, ctrlKey: true }));
    expect(result.current.selected).toEqual(['3', '1']);
    expect(result.current.activeId).toBeNull();
  });

  it('a new search clears the selection and the panel in the same draw', () => {
    const { result, rerender } = renderHook(({ search }) => useResultSelection(search, docs), {
      initialProps: { search: 'a' },
    });
    act(() => result.current.onItemClick(doc('1'), plain));
    expect(result.current.selected).toEqual(['1']);
    rerender({ search: 'b' });
    expect(result.current.selected).toEqual([]);
    expect(result.current.activeId).toBeNull();
  });

  it("the tour's step opens the first result's panel only when none is open", () => {
    const { result } = renderHook(() => useResultSelection('a', docs));
    act(() => result.current.openFirstInfo());
    expect(result.current.activeId).toBe('1');
    act(() => result.current.onItemClick(doc('3'), plain));
    act(() => result.current.openFirstInfo());
    expect(result.current.activeId).toBe('3');
  });
});

describe('the results view (portal-spec §4 "Search")', () => {
  const options = [
    { key: 'grid' as const, visible: true },
    { key: 'thumbnail' as const, visible: false },
    { key: 'list' as const, visible: true },
  ];

  it("starts with the config's default when it is shown, else the first shown", () => {
    expect(renderHook(() => useSearchView(options, 'list')).result.current[0]).toBe('list');
    expect(renderHook(() => useSearchView(options, 'thumbnail')).result.current[0]).toBe('grid');
  });

  it('keeps the view chosen in this tab while the config still shows it', () => {
    const first = renderHook(() => useSearchView(options, 'grid'));
    act(() => first.result.current[1]('list'));
    expect(first.result.current[0]).toBe('list');
    expect(renderHook(() => useSearchView(options, 'grid')).result.current[0]).toBe('list');
    const hidden = options.map((o) => ({ ...o, visible: o.key !== 'list' }));
    expect(renderHook(() => useSearchView(hidden, 'grid')).result.current[0]).toBe('grid');
  });
});

describe('the facet sidebar width (portal-spec §2 "Search")', () => {
  it("starts at the config's width, moves by arrow keys and is kept for the next visit", () => {
    const { result } = renderHook(() => useSidebarWidth(300));
    expect(result.current.width).toBe(300);
    act(() => result.current.onKey(key('ArrowRight')));
    expect(result.current.width).toBe(320);
    act(() => result.current.onKey(key('ArrowLeft')));
    act(() => result.current.onKey(key('ArrowLeft')));
    expect(result.current.width).toBe(280);
    expect(renderHook(() => useSidebarWidth(300)).result.current.width).toBe(280);
  });
});
