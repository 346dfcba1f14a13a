import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makePdf } from '../../test/media-fixtures.ts';
import { WorkBudget } from '../jobs/work-budget.ts';
import { WorkSlotRepository } from '../jobs/work-slot.repository.ts';
import { DerivativeRepository } from './derivative.repository.ts';
import { DerivativeService } from './derivative.service.ts';
import { ModelRenderer } from './model-renderer.ts';

const API = '/assetportal/api/';
const PAGES = 60;

/**
 * PDF pages past the tenth are rendered when asked for (docs/security.md "Media work on untrusted
 * files"). The real pdftoppm runs behind a wrapper on PATH that writes when each run starts and
 * ends, so the test sees how many ran and how many at once.
 */
describe.each(dialects)('PDF pages rendered on request on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let runLog: string;
  let pathBefore: string | undefined;
  let pdf: number;

  /** pdftoppm runs since the log was emptied: the first page each asked for, and the most at once. */
  const runs = () => {
    const lines = readFileSync(runLog, 'utf8').trim().split('\n').filter(Boolean);
    let running = 0;
    let most = 0;
    const pages: number[] = [];
    for (const line of lines) {
      const [what, page] = line.split(' ');
      if (what === 'start') {
        pages.push(Number(page));
        most = Math.max(most, ++running);
      } else running--;
    }
    return { pages, most };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-pages-'));
    runLog = path.join(dir, 'pdftoppm.log');
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    const real = '/usr/bin/pdftoppm';
    writeFileSync(
      path.join(bin, 'pdftoppm'),
      [
        '#!/bin/sh',
        'page=; prev=',
        'for a in "$@"; do [ "$prev" = "-f" ] && page="$a"; prev="$a"; done',
        `echo "start $page" >> '${runLog}'`,
        `'${real}' "$@"; rc=$?`,
        `echo "end $page" >> '${runLog}'`,
        'exit $rc',
      ].join('\n'),
    );
    chmodSync(path.join(bin, 'pdftoppm'), 0o755);
    pathBefore = process.env.PATH;
    process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;

    // Two renders per process, two more requests may wait; the rest are refused at once.
    t = await startTestApp({ dialect, settings: { work: { pdf_page: { perProcess: 2, total: 4 }, queue: 2 } } });
    makePdf(
      path.join(dir, 'media', 'manual.pdf'),
      Array.from({ length: PAGES }, (_, i) => `Page ${i + 1}`),
    );
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
    pdf = Number((await t.app.db.kysely.selectFrom('asset').select('id').executeTakeFirstOrThrow()).id);
  }, 120_000);
  afterAll(async () => {
    process.env.PATH = pathBefore;
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => writeFileSync(runLog, ''));

  const pageUrl = async (page: number) => {
    const res = await t.app.inject({ url: `${API}download/preview?id=${pdf}&page=${page}`, headers: xsrfHeaders });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ url: string }>().url;
  };

  it('renders a page asked for eight times at once with one pdftoppm', async () => {
    const url = await pageUrl(12);
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.app.inject({ url })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.every((a) => a.headers['content-type'] === 'image/jpeg')).toBe(true);
    expect(new Set(answers.map((a) => a.rawPayload.toString('base64'))).size).toBe(1);
    expect(runs().pages).toEqual([12]);
  });

  it('never runs more renders at once than the pool, and refuses the rest with 429 busy', async () => {
    const urls = await Promise.all(Array.from({ length: 16 }, (_, i) => pageUrl(20 + i)));
    const answers = await Promise.all(urls.map((url) => t.app.inject({ url })));
    const refused = answers.filter((a) => a.statusCode === 429);
    const { pages, most } = runs();
    expect(most).toBeLessThanOrEqual(2);
    expect(pages.length).toBe(answers.length - refused.length);
    expect(answers.filter((a) => a.statusCode !== 429).map((a) => a.statusCode)).toEqual(
      Array(answers.length - refused.length).fill(200),
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.json()).toMatchObject({ error: 'busy' });
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('renders a page once when two processes are asked for it at once', async () => {
    // A second process: its own renders in flight and its own slots, over the same database and files.
    const other = new DerivativeService(
      new DerivativeRepository(t.app.db.kysely),
      t.app.services.stores.derivatives,
      new ModelRenderer(t.settings.file.models),
      new WorkBudget(new WorkSlotRepository(t.app.db.kysely), t.settings.file.work),
      { warn: () => undefined },
    );
    const [mine, theirs] = await Promise.all([
      t.app.services.derivatives.renderPage(pdf, 50),
      other.renderPage(pdf, 50),
    ]);
    expect(mine?.path).toBeDefined();
    expect(theirs).toEqual(mine);
    expect(runs().pages).toEqual([50]);
  });

  // Last: it damages the document.
  it('answers 415 for a page of a damaged document, and does not try it again at once', async () => {
    const url = await pageUrl(55);
    const file = (await t.app.db.kysely.selectFrom('asset').select('source_path').executeTakeFirstOrThrow())
      .source_path;
    writeFileSync(file, '%PDF-1.4\nnot a document any more\n');
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toMatchObject({ error: 'unsupported_media_type' });
      expect(res.json<{ message: string }>().message).toBe(
        'Page 55 of this document could not be shown: the file may be damaged.',
      );
    }
    expect(runs().pages).toEqual([55]);
  });
});
