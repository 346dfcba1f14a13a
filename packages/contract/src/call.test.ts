import { describe, expect, it } from 'vitest';
import { searchQuerySchema } from './search.ts';
import { parseVersion, versionsMismatch } from './version.ts';

describe('search contract (ARCHITECTURE §4)', () => {
  it('reads repeated facet fields and JSON filters from query strings', () => {
    const q = searchQuerySchema.parse({
      solr_q: 'harbour',
      solr_facetfields: ['rating', 'creator'],
      filter: JSON.stringify([{ key: 'rating', values: ['4', '5'] }]),
      solr_rows: '50',
    });
    expect(q.solr_facetfields).toEqual(['rating', 'creator']);
    expect(q.filter).toEqual([{ key: 'rating', values: ['4', '5'] }]);
    expect(q.solr_rows).toBe(50);
    expect(q.solr_start).toBe(0);
  });

  it('accepts a single facet field as a one-element list', () => {
    expect(searchQuerySchema.parse({ solr_facetfields: 'rating' }).solr_facetfields).toEqual(['rating']);
  });

  it('rejects malformed JSON, rows out of bounds and a bad sort', () => {
    expect(searchQuerySchema.safeParse({ filter: '[{' }).success).toBe(false);
    expect(searchQuerySchema.safeParse({ solr_rows: '5000' }).success).toBe(false);
    expect(searchQuerySchema.safeParse({ solr_sort: 'rating sideways' }).success).toBe(false);
  });
});

describe('version comparison (admin-spec §4 "Config versioning and upgrade")', () => {
  it('counts non-semantic versions as 0.0.0', () => {
    expect(parseVersion('latest')).toEqual([0, 0, 0]);
    expect(parseVersion('7.0.6')).toEqual([7, 0, 6]);
  });

  it('warns on major or minor differences only', () => {
    expect(versionsMismatch('7.0.6', '7.0.1')).toBe(false);
    expect(versionsMismatch('7.0.6', '7.1.0')).toBe(true);
    expect(versionsMismatch('6.0.6', '7.0.6')).toBe(true);
  });
});
