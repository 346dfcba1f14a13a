import { http, HttpResponse, type JsonBodyType, type RequestHandler } from 'msw';
import type { CallAnswer } from '@vitrine/contract/call';
import type { editHistoryCall, editOptionsCall } from '@vitrine/contract/edit';
import { api } from './msw.ts';

/** What an editor may change on the fake server: a localised title, keywords with a vocabulary, the pseudo-fields. */
export const editOptions = (
  over: Partial<CallAnswer<typeof editOptionsCall>> = {},
): CallAnswer<typeof editOptionsCall> => ({
  fields: [
    { field_name: 'title', type: 'text', multiValued: false, localized: true, vocabulary: false },
    { field_name: 'keywords', type: 'keywords', multiValued: true, localized: false, vocabulary: true },
    { field_name: 'created', type: 'date', multiValued: false, localized: false, vocabulary: false },
    { field_name: 'access_groups', type: 'groups', multiValued: true, localized: false, vocabulary: false },
    { field_name: 'collections', type: 'collections', multiValued: true, localized: false, vocabulary: false },
  ],
  languages: ['en', 'de'],
  groups: ['public', 'staff'],
  collections: [{ id: 3, name: 'Harbour', path: 'Photos/Harbour' }],
  upload: { maxFileBytes: 1e9, maxDailyBytes: 1e10, usedTodayBytes: 0, extensions: ['jpg'] },
  canRemove: false,
  ...over,
});

export const batch = (over: Partial<CallAnswer<typeof editHistoryCall>['entries'][number]['batch']> = {}) => ({
  id: 7,
  kind: 'edit' as const,
  by: 'anna',
  at: '2026-12-01T10:00:00.000Z',
  assets: 1,
  fields: ['title'],
  undoOf: null,
  undoneBy: null,
  ...over,
});

/** The calls the editors' screens made, by path, with their bodies (POST) or query strings (GET). */
export type EditCalls = Record<string, unknown[]>;

/**
 * The editing calls as a server answers them for asset 42 ("harbour.jpg"), recording each call.
 * Tests replace single handlers with server.use for other answers.
 */
export function editHandlers(calls: EditCalls, options = editOptions()): RequestHandler[] {
  const record = (path: string, value: unknown) => (calls[path] ??= []).push(value);
  const post = (path: string, answer: (body: unknown) => JsonBodyType) =>
    http.post(api(path), async ({ request }) => {
      const body = await request.json();
      record(path, body);
      return HttpResponse.json(answer(body));
    });
  return [
    http.get(api('edit/options'), () => {
      record('edit/options', '');
      return HttpResponse.json(options);
    }),
    http.get(api('edit/asset'), ({ request }) => {
      record('edit/asset', new URL(request.url).search);
      return HttpResponse.json({
        id: '42',
        filename: 'harbour.jpg',
        status: 'active',
        fields: {
          title: { en: ['Harbour at night'], de: ['Hafen bei Nacht'] },
          keywords: { '': ['harbour', 'night'] },
          access_groups: { '': ['public'] },
        },
        edited: { title: { by: 'anna', at: '2026-12-01T10:00:00.000Z' } },
      });
    }),
    http.get(api('index/fields'), () =>
      HttpResponse.json({
        visible_fields: [
          {
            field_name: 'title',
            default_labels: { en: 'Title', de: 'Titel' },
            is_facet: false,
            range_facet: false,
            multi_valued: false,
            origin: 'column',
            type: 'text',
            options: {},
          },
          {
            field_name: 'keywords',
            default_labels: { en: 'Keywords', de: 'Schlagwörter' },
            is_facet: true,
            range_facet: false,
            multi_valued: true,
            origin: 'column',
            type: 'string',
            options: {},
          },
        ],
      }),
    ),
    http.get(api('search'), ({ request }) => {
      record('search', new URL(request.url).search);
      return HttpResponse.json({
        response: { docs: [], numFound: 0, start: 0 },
        facetCounts: {
          facetFields: {
            keywords: [
              { value: 'harbour', count: 3 },
              { value: 'boat', count: 1 },
            ],
          },
          facetRanges: {},
        },
      });
    }),
    post('edit/preview', () => ({ assets: 3, changing: 2, perChange: [2] })),
    post('edit/apply', (body) => ({
      batch: batch({ assets: (body as { ids: string[] }).ids.length }),
      changed: (body as { ids: string[] }).ids.length === 1 ? 1 : 2,
    })),
    post('edit/undo', () => ({ batch: batch({ id: 8, kind: 'undo', undoOf: 7 }), undone: 1, skipped: 0 })),
    post('edit/reset', () => ({ batch: batch({ id: 10, kind: 'reset' }) })),
    post('edit/collection', (body) => {
      const { name } = body as { name: string };
      return { id: 11, name, path: name };
    }),
    post('edit/bin', (body) => ({
      batch: batch({ id: 9, kind: 'bin' }),
      changed: (body as { ids: string[] }).ids.length,
    })),
    post('edit/restore', (body) => ({
      batch: batch({ id: 10, kind: 'restore' }),
      changed: (body as { ids: string[] }).ids.length,
    })),
    post('edit/remove', (body) => ({ removed: (body as { ids: string[] }).ids.length })),
    http.get(api('edit/history'), ({ request }) => {
      record('edit/history', new URL(request.url).search);
      return HttpResponse.json({
        entries: [
          {
            batch: batch({ id: 7, fields: ['title'] }),
            changes: [{ field: 'title', before: { en: ['Harbour'] }, after: { en: ['Harbour at night'] } }],
          },
          {
            batch: batch({ id: 5, kind: 'edit', by: 'ben', fields: ['keywords'], undoneBy: 6 }),
            changes: [{ field: 'keywords', before: { '': ['harbour'] }, after: { '': ['harbour', 'boat'] } }],
          },
        ],
      });
    }),
    http.get(api('edit/bin'), ({ request }) => {
      record('GET edit/bin', new URL(request.url).search);
      return HttpResponse.json({
        total: 2,
        assets: [
          { id: '51', title: 'Old pier', filename: 'pier.jpg', binnedBy: 'anna', binnedAt: '2026-12-02T09:00:00.000Z' },
          { id: '52', title: '', filename: 'lighthouse.jpg', binnedBy: null, binnedAt: null },
        ],
      });
    }),
  ];
}
