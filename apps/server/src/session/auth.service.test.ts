import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { loadSettings } from '../settings.ts';
import { hashToken } from '../auth/tokens.ts';
import { AuthService } from './auth.service.ts';
import { requireAssetUser, requireGuiAdmin } from '../auth/caller.ts';
import { UserRepository } from '../user/user.repository.ts';
import { SessionRepository } from './session.repository.ts';

const request = (token?: string) => ({ headers: token ? { authorization: `Bearer ${token}` } : {} }) as FastifyRequest;

describe.each(dialects)('session resolution on %s (portal-spec §6 "Roles and permissions")', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  afterEach(async () => {
    await db.close();
    await test.drop();
  });
  const setup = async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    const repo = new SessionRepository(db);
    const settings = loadSettings({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vitrine-auth-')) });
    return { repo, users: new UserRepository(db), auth: new AuthService(repo, settings) };
  };

  it('treats a request without a token as a guest with the guest groups', async () => {
    const { auth } = await setup();
    const a = await auth.resolve(request());
    expect(a).toMatchObject({ name: null, groups: ['public'], isAssetUser: true, isGuiAdmin: false, expired: false });
  });

  it('resolves a session token to its user and derives roles from the groups', async () => {
    const { users, auth } = await setup();
    const userId = await users.createUser({ name: 'ada', groups: ['admins'] });
    const token = await auth.openSession(userId);
    const a = await auth.resolve(request(token));
    expect(a).toMatchObject({ userId, name: 'ada', groups: ['admins'], isAssetUser: true, isGuiAdmin: true });
    expect(() => requireGuiAdmin(a)).not.toThrow();
  });

  it('stores only the hash of the token', async () => {
    const { repo, users, auth } = await setup();
    const token = await auth.openSession(await users.createUser({ name: 'bob', groups: ['users'] }));
    expect(await repo.findSession(token)).toBeUndefined();
    expect(await repo.findSession(hashToken(token))).toBeDefined();
  });

  it('answers an unknown, expired or revoked token as expired (401, not guest)', async () => {
    const { repo, users, auth } = await setup();
    const unknown = await auth.resolve(request('not-a-session'));
    expect(unknown).toMatchObject({ expired: true, isAssetUser: false });
    expect(() => requireAssetUser(unknown)).toThrow(expect.objectContaining({ id: 'unauthorized' }));

    const userId = await users.createUser({ name: 'cy', groups: ['users'] });
    const token = await auth.openSession(userId);
    await repo.touchSession(hashToken(token), Date.now() - 1);
    expect((await auth.resolve(request(token))).expired).toBe(true);

    const token2 = await auth.openSession(userId);
    await repo.deleteSession(hashToken(token2));
    expect((await auth.resolve(request(token2))).expired).toBe(true);
  });

  it('refuses a user in no portal group with 403 forbidden', async () => {
    const { users, auth } = await setup();
    const token = await auth.openSession(await users.createUser({ name: 'dee', groups: ['unknown-group'] }));
    const a = await auth.resolve(request(token));
    expect(a.isAssetUser).toBe(false);
    expect(() => requireAssetUser(a)).toThrow(expect.objectContaining({ id: 'forbidden' }));
  });
});
