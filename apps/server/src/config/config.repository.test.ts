import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { ConfigRepository } from './config.repository.ts';

describe.each(dialects)('ConfigRepository on %s', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  afterEach(async () => {
    await db.close();
    await test.drop();
  });
  const open = async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    return new ConfigRepository(db);
  };

  it('stores a document per name and language and replaces it on save', async () => {
    const repo = await open();
    expect(await repo.get('translations', 'de')).toBeUndefined();
    await repo.put('translations', 'de', { global: { required: 'Dieses Feld ist ein Pflichtfeld.' } });
    await repo.put('translations', 'en', { global: { required: 'This field is required.' } });
    await repo.put('translations', 'de', { global: { required: 'Pflichtfeld' } });
    expect(await repo.get('translations', 'de')).toEqual({ global: { required: 'Pflichtfeld' } });
    expect(await repo.languages('translations')).toEqual(['de', 'en']);
  });

  it('removes a document and reports whether there was one', async () => {
    const repo = await open();
    await repo.put('global', '', { version: '7.0.6' });
    expect(await repo.remove('global')).toBe(true);
    expect(await repo.remove('global')).toBe(false);
    expect(await repo.get('global')).toBeUndefined();
  });

  it('a save that fails part way leaves the old document and its history as they were', async () => {
    const repo = await open();
    await repo.save('global', '', { title: 'Version 1' }, 'admin');
    // The history can no longer be written: the save fails after its document was written.
    await sql`alter table config_history rename to config_history_away`.execute(db.kysely);
    await expect(repo.save('global', '', { title: 'Version 2' }, 'admin')).rejects.toThrow();
    await sql`alter table config_history_away rename to config_history`.execute(db.kysely);
    expect(await repo.get('global')).toEqual({ title: 'Version 1' });
    expect((await repo.history('global', '', 10)).map((h) => h.body)).toEqual([{ title: 'Version 1' }]);
  });

  it('concurrent saves leave one whole document, the same as the newest history entry', async () => {
    const repo = await open();
    for (let round = 0; round < 5; round++) {
      const versions = Array.from({ length: 12 }, (_v, i) => ({ title: `Round ${round} version ${i}` }));
      await Promise.all(versions.map((v) => repo.save('global', '', v, 'admin')));
      const [newest] = await repo.history('global', '', 1);
      expect(await repo.get('global')).toEqual(newest?.body);
    }
  });

  it('runs migrations once: reopening an existing database keeps its data', async () => {
    const repo = await open();
    await repo.put('global', '', { kept: true });
    await db.close();
    db = await openDatabase(test.config);
    expect(await new ConfigRepository(db).get('global')).toEqual({ kept: true });
  });
});
