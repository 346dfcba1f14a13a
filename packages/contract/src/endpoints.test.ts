import { describe, expect, it } from 'vitest';
import * as alike from './alike.ts';
import * as bookmark from './bookmark.ts';
import type { CallDefinition } from './call.ts';
import * as collection from './collection.ts';
import * as config from './config.ts';
import * as download from './download.ts';
import * as edit from './edit.ts';
import * as endpoints from './endpoints.ts';
import * as groups from './groups.ts';
import * as info from './info.ts';
import * as insights from './insights.ts';
import * as people from './people.ts';
import * as search from './search.ts';
import * as session from './session.ts';
import * as share from './share.ts';

const calls = new Map<string, CallDefinition>(
  [alike, bookmark, collection, config, download, edit, groups, info, insights, people, search, session, share].flatMap(
    (mod) => Object.entries(mod).filter((e): e is [string, CallDefinition] => e[0].endsWith('Call')),
  ),
);

describe('endpoints', () => {
  const entries = Object.entries(endpoints as Record<string, unknown>).filter(
    (e): e is [string, { method: string; path: string }] => e[0].endsWith('Call'),
  );

  it('name every call of the contract', () => {
    expect(entries.map(([name]) => name).sort()).toEqual([...calls.keys()].sort());
  });

  it.each(entries)('%s has the method and path of its call', (name, endpoint) => {
    const call = calls.get(name);
    expect(call).toBeDefined();
    expect({ method: endpoint.method, path: endpoint.path }).toEqual({ method: call?.method, path: call?.path });
  });

  it.each([
    ['category', { sort: 'count', orientation: 'desc' }],
    ['imp_date', { sort: 'alphabetical', orientation: 'asc' }],
  ] as const)("facetSortEntry writes what the search call's facet_sort reads back (%s)", (field, order) => {
    expect(search.facetSortParam.parse(endpoints.facetSortEntry(field, order))).toEqual({ field, ...order });
  });
});
