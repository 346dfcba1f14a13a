import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IndexField } from '@vitrine/contract/search';
import { buildAssets } from '../../test/factories.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { fieldsSettingSchema } from '../access/field-audience.ts';
import { createSearchEngine } from './create-engine.ts';
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
