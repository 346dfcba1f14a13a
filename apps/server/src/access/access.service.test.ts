import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { anonymous, type Auth } from '../auth/caller.ts';
import { AccessRepository } from './access.repository.ts';
import { AccessService } from './access.service.ts';
import { readMediaUrl, type MediaFile } from '@vitrine/contract/paths';

const caller = (name: string | null, groups: string[]): Auth => ({ ...anonymous, name, groups, isAssetUser: true });

describe.each(dialects)('asset access on %s (portal-spec §4 "Shared links", §6 "Roles and permissions")', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  let access: AccessService;
  const ids: Record<string, number> = {};

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    access = new AccessService(
      new AccessRepository(db, { sharerGroups: [], maxLifetimeMs: 86_400_000 }),
      'x'.repeat(32),
    );
    const assets: [string, string[], 'active' | 'gone'][] = [
      ['open', ['public', 'users'], 'active'],
      ['staff', ['users'], 'active'],
      ['secret', ['admins'], 'active'],
      ['removed', ['public'], 'gone'],
    ];
    for (const [name, groups, status] of assets) {
      const row = await db.kysely
        .insertInto('asset')
        .values({
          source_path: `${name}.jpg`,
          filename: `${name}.jpg`,
          sha256: name.padEnd(64, '0'),
          file_size: 1,
          mime: 'image/jpeg',
          format: 'jpeg',
          asset_group: 'image',
          status,
          created: null,
          imp_date: 1,
          updated_at: 1,
          pixel_x: null,
          pixel_y: null,
          bbox_x: null,
          bbox_y: null,
          rating: null,
          duration: null,
          page_count: null,
          gps_lat: null,
          gps_lon: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[name] = row.id;
      await db.kysely
        .insertInto('asset_access')
        .values(groups.map((group_name) => ({ asset_id: row.id, group_name })))
        .execute();
    }
  });
  afterEach(async () => {
    await db.close();
    await test.drop();
  });

  const id = (name: string) => ids[name] ?? -1;

  it('sees all shared assets: no notice', async () => {
    const view = await access.sharedLink(caller('u', ['users']), [id('open'), id('staff')]);
    expect(view).toEqual({ visibleIds: [id('open'), id('staff')], notice: null, loginFirst: false });
  });

  it('sees some: part_visible, keeping the order of the link', async () => {
    const view = await access.sharedLink(caller('u', ['users']), [id('secret'), id('staff'), id('open')]);
    expect(view).toEqual({ visibleIds: [id('staff'), id('open')], notice: 'part_visible', loginFirst: false });
  });

  it('sees none: none_visible, and a guest is asked to log in first', async () => {
    expect(await access.sharedLink(caller(null, ['public']), [id('staff'), id('secret')])).toEqual({
      visibleIds: [],
      notice: 'none_visible',
      loginFirst: true,
    });
    expect((await access.sharedLink(caller('u', ['users']), [id('secret')])).loginFirst).toBe(false);
  });

  it('hides removed assets and sees nothing without groups', async () => {
    expect((await access.sharedLink(caller(null, ['public']), [id('removed')])).notice).toBe('none_visible');
    expect((await access.sharedLink(caller('x', []), [id('open')])).visibleIds).toEqual([]);
  });

  it('checks ids for a permission: the allowed ones, or not found unless all are allowed', async () => {
    const users = caller('u', ['users']);
    const all = [id('open'), id('staff'), id('secret'), id('removed'), 999_999];
    expect(await access.checkAccess(users, 'asset.read', all)).toEqual(new Set([id('open'), id('staff')]));
    await expect(access.requireAccess(users, 'asset.read', [id('open'), id('staff')])).resolves.toBeUndefined();
    await expect(access.requireAccess(users, 'asset.read', [id('open'), id('secret')])).rejects.toMatchObject({
      id: 'not_found',
      message: `The asset ${id('secret')} was not found.`,
    });
    expect(access.searchGroups(users)).toEqual(['users']);
  });

  it('checks thousands of ids a thousand a statement, other work running between (a bulk edit of 5,000 assets)', async () => {
    const repository = new AccessRepository(db, { sharerGroups: [], maxLifetimeMs: 86_400_000 });
    const many = [id('open'), id('staff'), id('secret'), ...Array.from({ length: 2500 }, (_, i) => 1_000_000 + i)];
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    const editable = await repository.editableIds(['users'], many, false);
    order.push('answered');
    expect(editable).toEqual(new Set([id('open'), id('staff')]));
    expect(order).toEqual(['other work', 'answered']);
    setImmediate(() => order.push('other work'));
    expect(await repository.visibleIds(['admins'], many.toReversed())).toEqual(new Set([id('secret')]));
    order.push('answered');
    expect(order.slice(2)).toEqual(['other work', 'answered']);
  });

  it('signs media URLs and checks them', async () => {
    const users = caller('u', ['users']);
    const thumb = { kind: 'thumb', id: 7 } as const;
    const url = new URL(access.mediaUrl(users, thumb), 'http://h');
    const [exp, sig] = [url.searchParams.get('exp') ?? '', url.searchParams.get('sig') ?? ''];
    expect(await access.verifyMediaUrl(thumb, {}, exp, sig)).toBe('ok');
    expect(await access.verifyMediaUrl({ kind: 'thumb', id: 8 }, {}, exp, sig)).toBe('invalid');
    // A URL signed for everyone does not pass as one minted for a share link, nor the other way.
    expect(await access.verifyMediaUrl(thumb, { share: '1' }, exp, sig)).toBe('invalid');
    const unsigned = new AccessService(new AccessRepository(db, { sharerGroups: [], maxLifetimeMs: 86_400_000 }));
    expect(await unsigned.verifyMediaUrl(thumb, {}, exp, sig)).toBe('invalid');
    expect(() => unsigned.mediaUrl(users, thumb)).toThrow(/secret/);
  });

  it('checks every kind of media URL it signs as the media routes read it back', async () => {
    // As the routes read them: every part a string.
    const files: MediaFile[] = [
      { kind: 'thumb', id: '7' },
      { kind: 'video', id: '7' },
      { kind: 'audio', id: '7' },
      { kind: 'preview', id: '7' },
      { kind: 'preview', id: '7', page: '2' },
      { kind: 'download', id: '7', cset: '1' },
      { kind: 'zip', cset: '0', ids: ['7', '8', '1234567'] },
    ];
    const visitor: Auth = { ...caller(null, ['public']), share: { id: 4, assetIds: [7, 8], downloadSets: [0] } };
    const callers = [
      [caller('u', ['users']), undefined],
      [caller('u', ['users']), 'u3'],
      [visitor, 'guest'],
    ] as const;
    for (const file of files) {
      for (const [auth, by] of callers) {
        const read = readMediaUrl(access.mediaUrl(auth, file, { window: 'download', by }));
        expect(read?.file).toEqual(file);
        expect(read?.grant).toEqual({ ...(by ? { by } : {}), ...(auth.share ? { share: '4' } : {}) });
        const { grant = {}, exp, sig } = read ?? {};
        // The visitor's link is not in the database: its URLs check out, but the link is not live.
        expect(await access.verifyMediaUrl(file, grant, exp, sig)).toBe(auth.share ? 'revoked' : 'ok');
        expect(await access.verifyMediaUrl(file, { ...grant, by: 'u999' }, exp, sig)).toBe('invalid');
      }
    }
  });

  it('answers an asset the caller may not see as not found', async () => {
    await expect(access.requireVisible(caller('u', ['users']), id('staff'))).resolves.toBeUndefined();
    await expect(access.requireVisible(caller('u', ['users']), id('secret'))).rejects.toMatchObject({
      id: 'not_found',
    });
  });
});
