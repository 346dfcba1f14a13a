import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchAnswer } from '@vitrine/contract/search';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';

const API = '/assetportal/api/';

/** `count` distinct words: the worst case for a text index, each word a lexeme of its own. */
const distinctWords = (prefix: string, count: number): string =>
  Array.from({ length: count }, (_, i) => `${prefix}${i.toString(36)}`).join(' ');

describe.each(dialects)('long metadata values and huge documents on %s (portal-spec §7 "GET search")', (dialect) => {
  let t: TestApp;
  let longValue: number;
  let huge: number;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    // Past PostgreSQL's btree entry limit (about 2.7 KB): a plain index on the value refused these.
    longValue = await buildAsset(t.app.db, {
      values: { title: { en: 'Minutes of the meeting' }, creator: `Scribe ${randomBytes(5000).toString('hex')}` },
    });
    // Far beyond the tsvector limit (1 MB) once indexed.
    huge = await buildAsset(t.app.db, {
      values: { title: { en: 'Complete works' }, creator: `opening ${distinctWords('w', 250_000)}` },
    });
    // The worst case per character: words of one 4-byte letter, each a lexeme of its own.
    const letters = Array.from({ length: 60_000 }, (_, i) => String.fromCodePoint(0x20000 + i)).join(' ');
    await buildAsset(t.app.db, { values: { title: { en: 'Rare letters' }, creator: letters } });
    await buildAsset(t.app.db, { values: { title: { en: 'Tulip field' } } });
  }, 120_000);
  afterAll(async () => t.close());

  const search = async (q: string) => {
    const res = await t.app.inject({ url: `${API}search?solr_q=${encodeURIComponent(q)}` });
    expect(res.statusCode).toBe(200);
    return res.json<SearchAnswer>().response.docs.map((d) => Number(d.id));
  };

  it('imports a value of 10 KB and finds the asset by it', async () => {
    const stored = await t.app.db.kysely
      .selectFrom('asset_value')
      .select('value')
      .where('asset_id', '=', longValue)
      .where('field', '=', 'creator')
      .executeTakeFirstOrThrow();
    expect(String(stored.value).length).toBeGreaterThan(10_000);
    expect(await search('scribe')).toEqual([longValue]);
  });

  it('keeps answering searches when one document holds more text than a text index takes', async () => {
    expect(await search('tulip')).toHaveLength(1);
    expect(await search('opening')).toEqual([huge]);
    expect(await search('*')).toHaveLength(4);
    expect(await search('rare')).toHaveLength(1);
  });
});
