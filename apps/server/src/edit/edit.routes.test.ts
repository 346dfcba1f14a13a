import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DefaultQueryExecutor } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EditBatch } from '@vitrine/contract/edit';
import { apiCaller, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets, buildCollection } from '../../test/factories.ts';
import { makeImage } from '../../test/media-fixtures.ts';

type Headers = Record<string, string>;

describe.each(dialects)('editing on %s (docs/editing.md, decision 0250)', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let media: string;
  let user: Headers;
  let editor: Headers;
  let admin: Headers;
  let collection: number;
  const ids = { harbour: 0, alpha: 0, beta: 0, gamma: 0, hidden: 0 };

  const values = async (id: number, field: string, lang = '') =>
    (
      await t.app.db.kysely
        .selectFrom('asset_value')
        .select('value')
        .where('asset_id', '=', id)
        .where('field', '=', field)
        .where('lang', '=', lang)
        .orderBy('ord')
        .execute()
    ).map((r) => r.value);
  const status = async (id: number) =>
    (await t.app.db.kysely.selectFrom('asset').select('status').where('id', '=', id).executeTakeFirst())?.status;
  const batches = async () =>
    Number(
      (
        await t.app.db.kysely
          .selectFrom('edit_batch')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const apply = async (who: Headers, assets: number[], changes: object[]) =>
    call('POST', 'edit/apply', who, { ids: assets.map(String), changes });
  /** The ids a search finds, as an editor (who sees the `users` assets) asks it. */
  const found = async (query: string, extra = '') => {
    const res = await call('GET', `search?solr_q=${encodeURIComponent(query)}${extra}`, editor);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      response: { docs: { id: string }[] };
      facetCounts: { facetFields: Record<string, { value: string; count: number }[]> };
    }>();
  };
  const foundIds = async (query: string) => (await found(query)).response.docs.map((d) => Number(d.id)).sort();

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['users'] },
        groups: [
          { name: 'public' },
          { name: 'users' },
          { name: 'editors' },
          { name: 'secret' },
          { name: 'admins', guiAdmin: true },
        ],
      },
    });
    call = apiCaller(t);
    media = mkdtempSync(path.join(tmpdir(), 'vitrine-edit-'));
    await makeImage(path.join(media, 'harbour.jpg'), { width: 320, height: 200 });
    writeFileSync(
      path.join(media, 'harbour.jpg.json'),
      JSON.stringify({ title: { en: 'Harbour at dawn' }, creator: 'Anna Quill' }),
    );
    const summary = await t.app.services.importer().importFolder(media);
    expect(summary.failed).toEqual([]);
    const harbour = await t.app.db.kysely.selectFrom('asset').select('id').executeTakeFirstOrThrow();
    ids.harbour = Number(harbour.id);
    collection = await buildCollection(t.app.db, 'Campaign');
    [ids.alpha, ids.beta, ids.gamma, ids.hidden] = await buildAssets(t.app.db, [
      { filename: 'alpha.jpg', access: ['users'], values: { title: { en: 'Alpha pier' }, keywords: { en: ['boat'] } } },
      { filename: 'beta.jpg', access: ['users'], values: { title: { en: 'Beta pier' }, keywords: { en: ['boat'] } } },
      { filename: 'gamma.jpg', access: ['users'], values: { title: { en: 'Gamma pier' }, keywords: { en: ['boat'] } } },
      { filename: 'hidden.jpg', access: ['secret'], values: { title: { en: 'Hidden pier' } } },
    ]);
    user = (await signIn(t, { groups: ['users'] })).headers;
    editor = (await signIn(t, { name: 'edna', groups: ['users', 'editors'] })).headers;
    admin = (await signIn(t, { name: 'ada', groups: ['users', 'admins'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(media, { recursive: true, force: true });
  });

  it('answers a guest and a user 403 on every editing call (issue #49); editors and admins get through', async () => {
    const a = String(ids.alpha);
    const calls: [method: 'GET' | 'POST', url: string, body: object | undefined, editorStatus: number][] = [
      ['GET', 'edit/options', undefined, 200],
      ['GET', `edit/asset?id=${a}`, undefined, 200],
      ['POST', 'edit/preview', { ids: [a], changes: [{ field: 'title', op: 'set', values: ['x'], lang: 'en' }] }, 200],
      ['POST', 'edit/apply', { ids: [a], changes: [{ field: 'copyright', op: 'set', values: ['© Ada'] }] }, 200],
      ['POST', 'edit/bin', { ids: [String(ids.gamma)] }, 200],
      ['POST', 'edit/restore', { ids: [String(ids.gamma)] }, 200],
      ['GET', 'edit/bin', undefined, 200],
      ['GET', `edit/history?id=${a}`, undefined, 200],
      ['POST', 'edit/undo', { batch: 999_999 }, 404],
      ['POST', 'edit/collection', { name: 'Uploads' }, 200],
      // Admins only: a plain editor is refused.
      ['POST', 'edit/remove', { ids: [a] }, 403],
      ['POST', 'edit/reset', { id: a, field: 'title' }, 403],
    ];
    const before = await batches();
    for (const [method, url, body] of calls) {
      const guest = await call(method, url, xsrfHeaders, body);
      expect(guest.statusCode, `${url} as guest`).toBe(403);
      expect(guest.json<{ error: string }>().error).toBe('forbidden');
      const plain = await call(method, url, user, body);
      expect(plain.statusCode, `${url} as user`).toBe(403);
      expect(plain.json<{ error: string }>().error).toBe('forbidden');
    }
    expect(await batches()).toBe(before);
    for (const [method, url, body, editorStatus] of calls) {
      const res = await call(method, url, editor, body);
      expect(res.statusCode, `${url} as editor: ${res.body}`).toBe(editorStatus);
    }
    // An admin is an editor too, and may remove (here: refused, the asset is not in the bin) and reset.
    const removal = await call('POST', 'edit/remove', admin, { ids: [a] });
    expect(removal.statusCode, removal.body).toBe(400);
    const reset = await call('POST', 'edit/reset', admin, { id: a, field: 'copyright' });
    expect(reset.statusCode, reset.body).toBe(200);
    const options = await call('GET', 'edit/options', admin);
    expect(options.json()).toMatchObject({ canRemove: true });
    const own = await call('GET', 'edit/options', editor);
    expect(own.json()).toMatchObject({
      canRemove: false,
      groups: ['public', 'users', 'editors', 'secret', 'admins'],
      languages: expect.arrayContaining(['de', 'en']),
      upload: { maxFileBytes: 4096 * 1024 * 1024, usedTodayBytes: 0, extensions: expect.arrayContaining(['jpg']) },
    });
    const fields = own.json<{ fields: { field_name: string; multiValued: boolean; localized: boolean }[] }>().fields;
    expect(fields.find((f) => f.field_name === 'keywords')).toMatchObject({ multiValued: true, localized: true });
    expect(fields.find((f) => f.field_name === 'creator')).toMatchObject({ multiValued: false, localized: false });
    expect(fields.map((f) => f.field_name)).toEqual(
      expect.arrayContaining(['created', 'access_groups', 'collections']),
    );
  });

  it('answers 404 for an asset the editor may not see, and writes nothing', async () => {
    const h = String(ids.hidden);
    const before = await batches();
    const requests: ['GET' | 'POST', string, object | undefined][] = [
      ['GET', `edit/asset?id=${h}`, undefined],
      ['GET', `edit/history?id=${h}`, undefined],
      ['POST', 'edit/preview', { ids: [h], changes: [{ field: 'creator', op: 'set', values: ['x'] }] }],
      [
        'POST',
        'edit/apply',
        { ids: [String(ids.alpha), h], changes: [{ field: 'creator', op: 'set', values: ['x'] }] },
      ],
      ['POST', 'edit/bin', { ids: [h] }],
      ['POST', 'edit/restore', { ids: [h] }],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(method, url, editor, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('Hidden pier');
    }
    const removal = await call('POST', 'edit/remove', admin, { ids: [h] });
    expect(removal.statusCode).toBe(404);
    expect(await batches()).toBe(before);
    expect(await values(ids.alpha, 'creator')).toEqual([]);
    expect(await status(ids.hidden)).toBe('active');
  });

  it('refuses bad input with 400 naming the field, and writes nothing of the edit', async () => {
    const ok = { field: 'creator', op: 'set', values: ['Written anyway?'] };
    const cases: [change: object, path: string][] = [
      [{ field: 'no_such_field', op: 'set', values: ['x'] }, 'changes.1.field'],
      [{ field: 'camera_make', op: 'set', values: ['x'] }, 'changes.1.field'],
      [{ field: 'creator', lang: 'en', op: 'set', values: ['x'] }, 'changes.1.lang'],
      [{ field: 'title', lang: 'xx', op: 'set', values: ['x'] }, 'changes.1.lang'],
      [{ field: 'title', lang: 'en', op: 'replace', values: ['x'] }, 'changes.1.find'],
      [{ field: 'created', op: 'set', values: ['yesterday'] }, 'changes.1.values'],
      [{ field: 'access_groups', op: 'add', values: ['nobody'] }, 'changes.1.values'],
      [{ field: 'collections', op: 'add', values: ['999999'] }, 'changes.1.values'],
      [{ field: 'title', lang: 'en', op: 'add', values: ['x'] }, 'changes.1.op'],
      [{ field: 'creator', op: 'remove', values: ['x'] }, 'changes.1.op'],
    ];
    const before = await batches();
    for (const [change, where] of cases) {
      const res = await apply(editor, [ids.beta], [ok, change]);
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      const body = res.json<{ error: string; details: { path: string }[] }>();
      expect(body.error).toBe('validation');
      expect(body.details[0]?.path, JSON.stringify(change)).toBe(where);
    }
    // A change that leaves an asset of the selection without any group is refused whole.
    const orphan = await apply(
      editor,
      [ids.alpha, ids.beta],
      [ok, { field: 'access_groups', op: 'remove', values: ['users'] }],
    );
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json()).toMatchObject({ error: 'validation', details: [{ path: 'changes.1.values' }] });
    expect(await batches()).toBe(before);
    expect(await values(ids.beta, 'creator')).toEqual([]);
  });

  it('an edit is found by search, its facet and a filter as soon as the call answers', async () => {
    const res = await apply(
      editor,
      [ids.alpha],
      [
        { field: 'title', lang: 'en', op: 'set', values: ['Zephyrine lighthouse'] },
        { field: 'keywords', lang: 'en', op: 'add', values: ['quokkaword'] },
      ],
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 1, batch: { kind: 'edit', by: 'edna', assets: 1 } });
    expect(await foundIds('Zephyrine')).toEqual([ids.alpha]);
    expect(await foundIds('quokkaword')).toEqual([ids.alpha]);
    const facets = await found('*', '&solr_facetfields=keywords');
    expect(facets.facetCounts.facetFields.keywords).toContainEqual(
      expect.objectContaining({ value: 'quokkaword', count: 1 }),
    );
    const filter = encodeURIComponent(JSON.stringify([{ key: 'keywords', values: ['quokkaword'] }]));
    const filtered = await call('GET', `search?solr_q=*&filter=${filter}`, editor);
    expect(filtered.json<{ response: { docs: { id: string }[] } }>().response.docs.map((d) => Number(d.id))).toEqual([
      ids.alpha,
    ]);
    const asset = await call('GET', `edit/asset?id=${ids.alpha}`, editor);
    expect(asset.json()).toMatchObject({
      status: 'active',
      fields: { title: { en: ['Zephyrine lighthouse'] }, keywords: { en: ['boat', 'quokkaword'] } },
      edited: { title: { by: 'edna' }, keywords: { by: 'edna' } },
    });
  });

  it('an edit of one field keeps the words of the others in the full-text index', async () => {
    const [delta] = await buildAssets(t.app.db, [
      {
        filename: 'delta.jpg',
        access: ['users'],
        values: { title: { en: 'Quayside lantern' }, keywords: { en: ['mooring'] } },
      },
    ]);
    // Searched once, the index is current: the edit's own transaction writes the texts (search/text-feed.ts).
    expect(await foundIds('lantern')).toEqual([delta]);
    const res = await apply(editor, [delta], [{ field: 'keywords', lang: 'en', op: 'add', values: ['kelpword'] }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await foundIds('kelpword')).toEqual([delta]);
    // The title and the other keyword, which the edit did not touch, are still found as text.
    expect(await foundIds('lantern')).toEqual([delta]);
    expect(await foundIds('mooring')).toEqual([delta]);
  });

  it('an added value joins the end of the list; removing one in the middle and adding again keeps the order', async () => {
    const [asset] = await buildAssets(t.app.db, [
      { filename: 'order.jpg', access: ['users'], values: { keywords: { en: ['anchor', 'buoy'], de: ['Anker'] } } },
    ]);
    const step = async (changes: object[]) => expect((await apply(editor, [asset], changes)).statusCode).toBe(200);
    await step([{ field: 'keywords', lang: 'en', op: 'add', values: ['cleat', 'buoy', 'dock'] }]);
    expect(await values(asset, 'keywords', 'en')).toEqual(['anchor', 'buoy', 'cleat', 'dock']);
    await step([{ field: 'keywords', lang: 'en', op: 'remove', values: ['buoy'] }]);
    expect(await values(asset, 'keywords', 'en')).toEqual(['anchor', 'cleat', 'dock']);
    await step([
      { field: 'keywords', lang: 'en', op: 'add', values: ['eddy'] },
      { field: 'keywords', lang: 'de', op: 'add', values: ['Boje'] },
    ]);
    expect(await values(asset, 'keywords', 'en')).toEqual(['anchor', 'cleat', 'dock', 'eddy']);
    expect(await values(asset, 'keywords', 'de')).toEqual(['Anker', 'Boje']);
    // The rows are numbered 0, 1, 2 … per language after every step, as the import numbers them.
    const ords = await t.app.db.kysely
      .selectFrom('asset_value')
      .select(['lang', 'ord'])
      .where('asset_id', '=', asset)
      .where('field', '=', 'keywords')
      .orderBy('lang')
      .orderBy('ord')
      .execute();
    expect(ords.map((r) => `${r.lang}${Number(r.ord)}`)).toEqual(['de0', 'de1', 'en0', 'en1', 'en2', 'en3']);
    expect(await foundIds('eddy')).toEqual([asset]);
    expect(await foundIds('buoy')).toEqual([]);
  });

  it('previews how many assets an edit changes without changing them', async () => {
    const before = await batches();
    const res = await call('POST', 'edit/preview', editor, {
      ids: [String(ids.alpha), String(ids.beta), String(ids.gamma)],
      changes: [
        { field: 'keywords', lang: 'en', op: 'add', values: ['boat'] },
        { field: 'title', lang: 'en', op: 'replace', find: 'pier', values: ['jetty'] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    // Every one has 'boat' already; Alpha's title has no 'pier' any more.
    expect(res.json()).toEqual({ assets: 3, changing: 2, perChange: [0, 2] });
    expect(await batches()).toBe(before);
    expect(await values(ids.beta, 'title', 'en')).toEqual(['Beta pier']);
  });

  it('undoes a single edit, and refuses to undo it twice', async () => {
    const res = await apply(editor, [ids.beta], [{ field: 'title', lang: 'en', op: 'set', values: ['Wrong title'] }]);
    const batch = res.json<{ batch: EditBatch }>().batch;
    expect(await values(ids.beta, 'title', 'en')).toEqual(['Wrong title']);
    const undo = await call('POST', 'edit/undo', editor, { batch: batch.id });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toMatchObject({ undone: 1, skipped: 0, batch: { kind: 'undo', undoOf: batch.id } });
    expect(await values(ids.beta, 'title', 'en')).toEqual(['Beta pier']);
    expect(await foundIds('Wrong')).toEqual([]);
    const again = await call('POST', 'edit/undo', editor, { batch: batch.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'conflict' });
    // An undo that passed the first check while another finished is refused whole in its transaction.
    const late = t.app.services.repositories.edits.apply({
      kind: 'undo',
      account: { id: null, name: 'edna' },
      ids: [ids.beta],
      fields: ['creator'],
      overlay: 'edit',
      undoOf: batch.id,
      next: () => new Map([['creator', { '': ['Late'] }]]),
    });
    await expect(late).rejects.toMatchObject({ id: 'conflict' });
    expect(await values(ids.beta, 'creator')).toEqual([]);
    const history = await call('GET', `edit/history?id=${ids.beta}`, editor);
    const entries = history.json<{ entries: { batch: EditBatch; changes: object[] }[] }>().entries;
    expect(entries[0]).toMatchObject({
      batch: { kind: 'undo', undoOf: batch.id },
      changes: [{ field: 'title', before: { en: ['Wrong title'] }, after: { en: ['Beta pier'] } }],
    });
    expect(entries[1]).toMatchObject({ batch: { id: batch.id, undoneBy: entries[0]?.batch.id } });
  });

  it('undoes a bulk edit as one, skipping an asset changed again since', async () => {
    const all = [ids.alpha, ids.beta, ids.gamma];
    const res = await apply(editor, all, [{ field: 'keywords', lang: 'en', op: 'add', values: ['tide'] }]);
    const batch = res.json<{ batch: EditBatch; changed: number }>();
    expect(batch.changed).toBe(3);
    await apply(editor, [ids.gamma], [{ field: 'keywords', lang: 'en', op: 'add', values: ['storm'] }]);
    const undo = await call('POST', 'edit/undo', editor, { batch: batch.batch.id });
    expect(undo.json()).toMatchObject({ undone: 2, skipped: 1 });
    expect(await values(ids.alpha, 'keywords', 'en')).toEqual(['boat', 'quokkaword']);
    expect(await values(ids.beta, 'keywords', 'en')).toEqual(['boat']);
    expect(await values(ids.gamma, 'keywords', 'en')).toEqual(['boat', 'tide', 'storm']);
    expect(await foundIds('tide')).toEqual([ids.gamma]);
    // Undoing the undo is a change like any other.
    const redo = await call('POST', 'edit/undo', editor, { batch: undo.json<{ batch: EditBatch }>().batch.id });
    expect(redo.json()).toMatchObject({ undone: 2, skipped: 0 });
    expect(await foundIds('tide')).toEqual([ids.alpha, ids.beta, ids.gamma].sort((x, y) => x - y));
  });

  it('edits visibility, collections and the date the same way', async () => {
    const res = await apply(
      editor,
      [ids.beta],
      [
        { field: 'access_groups', op: 'add', values: ['public'] },
        { field: 'collections', op: 'set', values: [String(collection)] },
        { field: 'created', op: 'set', values: ['2020-05-04'] },
      ],
    );
    expect(res.statusCode, res.body).toBe(200);
    const asset = await call('GET', `edit/asset?id=${ids.beta}`, editor);
    expect(asset.json()).toMatchObject({
      fields: {
        access_groups: { '': ['public', 'users'] },
        collections: { '': [String(collection)] },
        created: { '': ['2020-05-04T00:00:00.000Z'] },
      },
    });
    const row = await t.app.db.kysely
      .selectFrom('asset')
      .select('created')
      .where('id', '=', ids.beta)
      .executeTakeFirst();
    expect(Number(row?.created)).toBe(Date.parse('2020-05-04T00:00:00Z'));
    // A guest (group public) now sees it.
    const guest = await call('GET', `search?solr_q=*&id=${ids.beta}`, xsrfHeaders);
    expect(guest.json<{ response: { numFound: number } }>().response.numFound).toBe(1);
    const inCollection = await call('GET', `search?solr_q=*&meta_collections=${collection}`, editor);
    expect(inCollection.json<{ response: { docs: { id: string }[] } }>().response.docs.map((d) => d.id)).toEqual([
      String(ids.beta),
    ]);
  });

  it('the bin hides an asset from search at once and a restore brings it back', async () => {
    expect(await foundIds('Gamma')).toEqual([ids.gamma]);
    const bin = await call('POST', 'edit/bin', editor, { ids: [String(ids.gamma)] });
    expect(bin.json()).toMatchObject({ changed: 1, batch: { kind: 'bin', fields: ['status'] } });
    expect(await foundIds('Gamma')).toEqual([]);
    const list = await call('GET', 'edit/bin', editor);
    expect(list.json()).toMatchObject({
      total: 1,
      assets: [{ id: String(ids.gamma), title: 'Gamma pier', filename: 'gamma.jpg', binnedBy: 'edna' }],
    });
    // A user who is no editor does not see it either.
    const res = await call('GET', `search?solr_q=Gamma`, user);
    expect(res.json<{ response: { numFound: number } }>().response.numFound).toBe(0);
    const restore = await call('POST', 'edit/restore', editor, { ids: [String(ids.gamma)] });
    expect(restore.json()).toMatchObject({ changed: 1, batch: { kind: 'restore' } });
    expect(await foundIds('Gamma')).toEqual([ids.gamma]);
    expect((await call('GET', 'edit/bin', editor)).json()).toMatchObject({ total: 0, assets: [] });
  });

  it("a binned asset is not its collection's tile on the dashboard while it is in the bin; other groups' tiles neither", async () => {
    const album = await buildCollection(t.app.db, 'Regatta');
    // The first member becomes the tile; the second is newer; the third only `secret` sees.
    const [tile, newer, secret] = await buildAssets(t.app.db, [
      { filename: 'tile.jpg', access: ['users'], collections: [album] },
      { filename: 'newer.jpg', access: ['users'], collections: [album] },
      { filename: 'secret.jpg', access: ['secret'], collections: [album] },
    ]);
    const shown = async () =>
      (await call('GET', 'collection?operation=list', editor))
        .json<{ collections: { indicator: string; src: string }[] }>()
        .collections.find((c) => c.indicator === `collection_${album}`)?.src;
    const chosen = async () =>
      (
        await t.app.db.kysely
          .selectFrom('collection')
          .select('thumbnail_asset_id')
          .where('id', '=', album)
          .executeTakeFirst()
      )?.thumbnail_asset_id;
    expect(Number(await chosen())).toBe(tile);
    expect(await shown()).toBe(String(tile));
    expect((await call('POST', 'edit/bin', editor, { ids: [String(tile)] })).statusCode).toBe(200);
    expect(await shown()).toBe(String(newer));
    expect((await call('POST', 'edit/restore', editor, { ids: [String(tile)] })).statusCode).toBe(200);
    expect(await shown()).toBe(String(tile));
    // A tile of a group the caller is not in is not shown to it either.
    await t.app.db.kysely
      .updateTable('collection')
      .set({ thumbnail_asset_id: secret })
      .where('id', '=', album)
      .execute();
    expect(await shown()).toBe(String(newer));
  });

  it('keeps an edited field through a re-import of a changed file and updates the others; an admin resets it', async () => {
    const h = ids.harbour;
    expect(await values(h, 'title', 'en')).toEqual(['Harbour at dawn']);
    await apply(editor, [h], [{ field: 'title', lang: 'en', op: 'set', values: ['Harbour, edited'] }]);
    await makeImage(path.join(media, 'harbour.jpg'), { width: 400, height: 300 });
    writeFileSync(
      path.join(media, 'harbour.jpg.json'),
      JSON.stringify({ title: { en: 'Harbour from the file' }, creator: 'Bert Quill' }),
    );
    const summary = await t.app.services.importer().importFolder(media);
    expect(summary).toMatchObject({ updated: 1, failed: [] });
    expect(await values(h, 'title', 'en')).toEqual(['Harbour, edited']);
    expect(await values(h, 'creator')).toEqual(['Bert Quill']);
    expect(await foundIds('edited')).toEqual([h]);
    expect(await foundIds('Bert')).toEqual([h]);
    const mark = await t.app.db.kysely
      .selectFrom('asset_edit')
      .select('imported')
      .where('asset_id', '=', h)
      .where('field', '=', 'title')
      .executeTakeFirst();
    expect(JSON.parse(mark?.imported ?? 'null')).toEqual({ en: ['Harbour from the file'] });

    const reset = await call('POST', 'edit/reset', admin, { id: String(h), field: 'title' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ batch: { kind: 'reset', fields: ['title'] } });
    expect(await values(h, 'title', 'en')).toEqual(['Harbour from the file']);
    const again = await call('POST', 'edit/reset', admin, { id: String(h), field: 'title' });
    expect(again.statusCode).toBe(400);
    // Not edited any more: the next import of a changed file updates it.
    writeFileSync(path.join(media, 'harbour.jpg.json'), JSON.stringify({ title: { en: 'Harbour, third file' } }));
    await t.app.services.importer().importFolder(media);
    expect(await values(h, 'title', 'en')).toEqual(['Harbour, third file']);
  });

  it('a binned asset stays in the bin through a re-import, changed file or not', async () => {
    const h = ids.harbour;
    await call('POST', 'edit/bin', editor, { ids: [String(h)] });
    const unchanged = await t.app.services.importer().importFolder(media);
    expect(unchanged).toMatchObject({ unchanged: 1, updated: 0 });
    writeFileSync(path.join(media, 'harbour.jpg.json'), JSON.stringify({ title: { en: 'Harbour, fourth file' } }));
    const changed = await t.app.services.importer().importFolder(media);
    expect(changed).toMatchObject({ updated: 1 });
    expect(await status(h)).toBe('bin');
    expect(await foundIds('fourth')).toEqual([]);
    await call('POST', 'edit/restore', editor, { ids: [String(h)] });
    expect(await foundIds('fourth')).toEqual([h]);
  });

  it('an edit of values leaves the asset rows as they are; the bin lists the assets latest moved there first (decision 0276)', async () => {
    const [buoy, oar] = await buildAssets(t.app.db, [
      { filename: 'buoy.jpg', access: ['users'], values: { title: { en: 'Binned buoy' } } },
      { filename: 'oar.jpg', access: ['users'], values: { title: { en: 'Binned oar' } } },
    ]);
    const row = async (id: number) =>
      t.app.db.kysely.selectFrom('asset').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const before = await row(buoy);
    const edited = await apply(editor, [buoy], [{ field: 'keywords', op: 'add', lang: 'en', values: ['flotsam'] }]);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await foundIds('keywords:flotsam')).toEqual([buoy]);
    expect(await row(buoy)).toEqual(before);
    // Moved to the bin in the other order than their ids: the list follows the moves.
    await call('POST', 'edit/bin', editor, { ids: [String(oar)] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call('POST', 'edit/bin', editor, { ids: [String(buoy)] });
    const listed = async () =>
      (await call('GET', 'edit/bin', editor))
        .json<{ assets: { id: string }[] }>()
        .assets.map((a) => Number(a.id))
        .filter((id) => id === buoy || id === oar);
    expect(await listed()).toEqual([buoy, oar]);
    await call('POST', 'edit/restore', editor, { ids: [String(buoy), String(oar)] });
    expect(await listed()).toEqual([]);
  });

  it('an admin removes binned assets for good, and search forgets them', async () => {
    const [doomed] = await buildAssets(t.app.db, [
      { filename: 'doomed.jpg', access: ['users'], values: { title: { en: 'Doomed wreck' } } },
    ]);
    expect(await foundIds('wreck')).toEqual([doomed]);
    await apply(editor, [doomed], [{ field: 'creator', op: 'set', values: ['Somebody'] }]);
    const active = await call('POST', 'edit/remove', admin, { ids: [String(doomed)] });
    expect(active.statusCode).toBe(400);
    expect(await status(doomed)).toBe('active');
    await call('POST', 'edit/bin', editor, { ids: [String(doomed)] });
    const res = await call('POST', 'edit/remove', admin, { ids: [String(doomed)] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ removed: 1 });
    expect(await status(doomed)).toBeUndefined();
    for (const table of ['asset_value', 'asset_access', 'asset_edit'] as const) {
      const left = await t.app.db.kysely.selectFrom(table).select('asset_id').where('asset_id', '=', doomed).execute();
      expect(left, table).toEqual([]);
    }
    expect(await foundIds('wreck')).toEqual([]);
    const history = await call('GET', `edit/history?id=${doomed}`, editor);
    expect(history.statusCode).toBe(404);
  });

  it('makes a collection for uploads, or answers the one of that name', async () => {
    const made = await call('POST', 'edit/collection', editor, { name: 'Shoot 2026' });
    expect(made.statusCode, made.body).toBe(200);
    const { id } = made.json<{ id: number }>();
    const again = await call('POST', 'edit/collection', editor, { name: 'Shoot 2026' });
    expect(again.json()).toMatchObject({ id, name: 'Shoot 2026' });
    const child = await call('POST', 'edit/collection', editor, { name: 'Day 1', parent: id });
    expect(child.json()).toMatchObject({ name: 'Day 1' });
    const orphan = await call('POST', 'edit/collection', editor, { name: 'Day 2', parent: 999_999 });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json()).toMatchObject({ error: 'validation', details: [{ path: 'parent' }] });
    const options = await call('GET', 'edit/options', editor);
    expect(options.json<{ collections: { id: number }[] }>().collections.map((c) => c.id)).toContain(id);
  });

  it('records an upload as a batch whose undo moves the assets to the bin', async () => {
    const [up] = await buildAssets(t.app.db, [{ filename: 'upload.jpg', access: ['users'] }]);
    const batch = await t.app.services.repositories.edits.recordUpload(t.app.db, { id: null, name: 'edna' }, [up]);
    expect(batch).toMatchObject({ kind: 'upload', assets: 1, fields: ['status'], by: 'edna' });
    const undo = await call('POST', 'edit/undo', editor, { batch: batch?.id });
    expect(undo.json()).toMatchObject({ undone: 1, skipped: 0 });
    expect(await status(up)).toBe('bin');
  });
  it('edits 5,000 assets in statements of hundreds, not one per asset, and undoes them as one', async () => {
    const many = await buildAssets(
      t.app.db,
      Array.from({ length: 5000 }, (_, i) => ({
        filename: `bulk-${i}.jpg`,
        access: ['users'],
        values: { title: { en: `Bulk ${i}` }, keywords: { en: ['bulk'] } },
      })),
    );
    // Every statement of every connection goes through the executors' base class.
    const statements = vi.spyOn(
      Object.getPrototypeOf(DefaultQueryExecutor.prototype) as DefaultQueryExecutor,
      'executeQuery',
    );
    const res = await apply(editor, many, [{ field: 'keywords', lang: 'en', op: 'add', values: ['windjammer'] }]);
    const count = statements.mock.calls.length;
    statements.mockRestore();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 5000, batch: { assets: 5000 } });
    // Statements of 250 assets each (TURN_SIZE), so no one holds the event loop long: some 140 in all.
    expect(count).toBeLessThan(200);
    const search = await call('GET', 'search?solr_q=windjammer&solr_rows=1', editor);
    expect(search.json<{ response: { numFound: number } }>().response.numFound).toBe(5000);
    const undo = await call('POST', 'edit/undo', editor, { batch: res.json<{ batch: EditBatch }>().batch.id });
    expect(undo.json()).toMatchObject({ undone: 5000, skipped: 0 });
    const after = await call('GET', 'search?solr_q=windjammer&solr_rows=1', editor);
    expect(after.json<{ response: { numFound: number } }>().response.numFound).toBe(0);
  }, 120_000);
});
