import { describe, expect, it } from 'vitest';
import type { Collection } from '@vitrine/contract/collection';
import { collectionSearchPath } from './collectionRoute.ts';

const collection = (search: unknown, extra: Partial<Collection> = {}): Collection => ({
  indicator: 'harbour',
  label: 'Harbour',
  position: 0,
  search,
  ...extra,
});

const query = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');

describe('collectionSearchPath', () => {
  it('leads a DAM collection to all assets filtered by its collection id', () => {
    const path = collectionSearchPath(collection(undefined, { indicator: 'collection_12' }), 'en', 'en');
    expect(query(path).get('meta_collections')).toBe('12');
  });

  it('runs the pre-search of the content language with its facets and ranges', () => {
    const search = {
      de: { text: 'Hafen', facets: [] },
      en: {
        text: 'harbour',
        facets: [
          { key: 'category', values: ['Photography', 'Travel'] },
          { key: 'imp_date', values: [], range: { from: '1', to: '2' } },
        ],
      },
    };
    const path = collectionSearchPath(collection(search, { sort: 'rating', orientation: 'asc' }), 'en', 'de');
    expect(path.startsWith('/search/harbour')).toBe(true);
    const params = query(path);
    expect(params.get('+category')).toBe('Photography,Travel');
    expect(params.get('+imp_date')).toBe('1 TO 2');
    expect(params.get('sort')).toBe('rating');
    expect(params.get('orientation')).toBe('asc');
  });

  it('falls back to the fallback language, and fills a missing text and facet list', () => {
    const path = collectionSearchPath(collection({ de: { facets: [{ key: 'rating', values: ['5'] }] } }), 'fr', 'de');
    expect(query(path).get('+rating')).toBe('5');
  });

  it('searches everything when the pre-search has another shape', () => {
    for (const search of [{ en: { text: 3 } }, { en: { facets: [{ key: 'x', values: [1] }] } }, ['a'], 7]) {
      expect(query(collectionSearchPath(collection(search), 'en', 'en')).has('+x')).toBe(false);
      expect(collectionSearchPath(collection(search), 'en', 'en')).toBe(
        collectionSearchPath(collection(null), 'en', 'en'),
      );
    }
  });
});
