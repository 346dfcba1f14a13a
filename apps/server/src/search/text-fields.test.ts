import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IndexField } from '@vitrine/contract/search';
import { FieldRegistry } from '@vitrine/search-engine';
import { buildAssets } from '../../test/factories.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { newAssetWrite, type NewAsset } from '../catalogue/new-asset.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { declaredFields, fieldsSettingSchema } from '../access/field-audience.ts';
import { createSearchEngine, createTextFeed } from './create-engine.ts';
import { SearchRepository } from './search.repository.ts';

/**
 * A field given an audience keeps its words out of the full-text index (docs/security.md "Field
 * audiences"). An index made while the field was open to all still holds them: the next server
 * start finds other fields recorded and makes the text index again, and does not use an index
 * snapshot made of the old words.
 */
const notes: IndexField = {
  field_name: 'notes',
  default_labels: { en: 'Notes' },
  is_facet: false,
  range_facet: false,
  multi_valued: false,
  origin: 'settings',
  type: 'text',
  options: {},
};

describe.each(dialects)('the full-text index follows the fields whose words it holds, on %s (issue #48)', (dialect) => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    await buildAssets(db, [
      { values: { title: { en: 'Lighthouse' }, notes: 'zanzibar briefing' }, access: ['public'] },
      { values: { title: { en: 'Harbour' } }, access: ['public'] },
    ]);
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const found = async (fields: unknown[], q: string) => {
    const engine = createSearchEngine(db, fieldsSettingSchema.parse(fields));
    await engine.refresh();
    return (await engine.search(['public'], { q, rows: 10 })).numFound;
  };

  it('makes the text index again when a text field is restricted, and only then', async () => {
    // Made while the field was open to everyone: its words are found.
    expect(await found([notes], 'zanzibar')).toBe(1);
    // The next start with the field personal: its words are gone; other words stay.
    const restricted = [{ ...notes, personal: true }];
    expect(await found(restricted, 'zanzibar')).toBe(0);
    expect(await found(restricted, 'lighthouse')).toBe(1);
    // Starting again with the same fields does not make it again.
    const cleared = vi.spyOn(SearchRepository.prototype, 'setTextFields');
    try {
      expect(await found(restricted, 'zanzibar')).toBe(0);
      expect(cleared).not.toHaveBeenCalled();
    } finally {
      cleared.mockRestore();
    }
    // Open again: its words come back.
    expect(await found([notes], 'zanzibar')).toBe(1);
  });
});

/**
 * A text index made anew (the first assets written with the feed, as an import or bench data does;
 * or a full load while bench data writes) holds exactly the fields of the process that made it, so
 * it records them: the first server start then does not take it for one of unknown fields and make
 * it again, which took 7–12 s of a 10–17 s start on bench data's fresh 100k catalogue (bench/README.md
 * "First start on a fresh catalogue").
 */
describe.each(dialects)("a fresh catalogue's text index records its fields, on %s", (dialect) => {
  const fields = fieldsSettingSchema.parse([{ ...notes, personal: true }]);
  const assets: NewAsset[] = [
    {
      source_path: '/fresh/1.jpg',
      filename: 'one.jpg',
      values: { title: 'Lighthouse', notes: 'zanzibar' },
      access: ['public'],
    },
    { source_path: '/fresh/2.jpg', filename: 'two.jpg', values: { title: 'Harbour' }, access: ['public'] },
  ];
  let database: TestDatabase;
  let db: Db;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
  });

  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  const write = (feed: boolean) =>
    new CatalogueRepository(db.kysely, feed ? createTextFeed(db, fields) : undefined).saveAssets(
      assets.map((a) => newAssetWrite(a, 1_700_000_000_000)),
      { now: 1_700_000_000_000 },
    );

  /** A server's first start on the catalogue: its text index is not made again, and answers. */
  async function firstStart(): Promise<void> {
    const repository = new SearchRepository(db);
    expect(await repository.textFields()).toBe(new FieldRegistry(declaredFields(fields)).textSignature);
    const remade = vi.spyOn(SearchRepository.prototype, 'setTextFields');
    try {
      const engine = createSearchEngine(db, fields);
      await engine.refresh();
      expect(remade).not.toHaveBeenCalled();
      expect((await engine.search(['public'], { q: 'lighthouse', rows: 10 })).numFound).toBe(1);
      expect((await engine.search(['public'], { q: 'zanzibar', rows: 10 })).numFound).toBe(0);
    } finally {
      remade.mockRestore();
    }
    expect((await repository.textState()).watermark).toBe(await repository.generation());
  }

  it('when the first assets were written with the feed (an import, bench data)', async () => {
    await write(true);
    await firstStart();
  });

  it("when a load while the catalogue was written made it (bench data's indexing thread)", async () => {
    await write(false);
    const ended = { total: assets.length, ended: () => true, wrote: async () => {}, follower: () => ended };
    await createSearchEngine(db, fields).loadWhileWritten(ended);
    await firstStart();
  });
});
