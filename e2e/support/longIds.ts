import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page, Response } from '@playwright/test';
import { expect } from './journey.ts';

/**
 * Asset ids are the catalogue's 32-bit integers (download.service.ts `isAssetId`), so the longest an
 * id can be is ten digits. A catalogue of long ids starts its ids so that its last asset has the
 * highest id there is.
 */
export const LAST_ID = 2 ** 31 - 1;

/** The file of the i-th asset of a catalogue of long ids. */
export const longIdFile = (prefix: string, i: number) => `${prefix}-asset-${String(i).padStart(4, '0')}.svg`;

/** A small picture of its own colour for the i-th asset. */
const picture = (i: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#${((i * 40_503) % 0xffffff).toString(16).padStart(6, '0')}"/></svg>\n`;

/**
 * Fills a journey's own portal (ownServer.ts `prepare`) with `count` small real files named
 * `<prefix>-0001.svg`…, imported as an operator does, whose ids end at LAST_ID.
 */
export function importLongIds(
  vitrine: (...args: string[]) => void,
  folder: string,
  dataDir: string,
  { prefix, count, derivatives = true }: { prefix: string; count: number; derivatives?: boolean },
): void {
  const files = path.join(folder, 'import', `${prefix} journey`);
  mkdirSync(files, { recursive: true });
  for (let i = 1; i <= count; i++) writeFileSync(path.join(files, longIdFile(prefix, i)), picture(i));
  // A first command makes the database; its ids then continue from the highest there was.
  vitrine('users', 'list');
  const db = new Database(path.join(dataDir, 'vitrine.db'));
  try {
    db.prepare("insert into sqlite_sequence (name, seq) values ('asset', ?)").run(LAST_ID - count);
  } finally {
    db.close();
  }
  vitrine('import', ...(derivatives ? [] : ['--no-derivatives']), path.join(folder, 'import'));
}

/**
 * Searches everything in thumbnails, selects the first result (ctrl click: a plain one would open
 * its details) and scrolls until infinite scroll has loaded all `count` results (newest first, the
 * highest id first); answers the result buttons.
 */
export async function searchAndLoadAll(page: Page, count: number, timeout: number): Promise<Locator> {
  let loaded = 0;
  const counted = async (response: Response) => {
    if (!response.ok() || !new URL(response.url()).pathname.endsWith('/api/search')) return;
    // A search answered while the page goes on (a zip's download) has no body left to read: it is
    // no page of results this waits for.
    const body = (await response.json().catch(() => undefined)) as
      { response: { start: number; docs: unknown[] } } | undefined;
    if (body) loaded = Math.max(loaded, body.response.start + body.response.docs.length);
  };
  page.on('response', counted);
  await page.goto('/#/search/*');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(
    new RegExp(`^${count.toLocaleString('en').replace(',', ',?')} results`),
    { timeout: 15_000 },
  );
  await page.getByRole('button', { name: 'Thumbnails', exact: true }).click();
  const region = page.getByRole('region', { name: 'Results' });
  await expect(region.locator('[data-asset-id]').first()).toHaveAttribute('data-asset-id', String(LAST_ID));
  const buttons = region.locator('[data-asset-id] [data-result-button]');
  await buttons.first().click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByText('1 selected', { exact: true })).toBeVisible();
  // Scrolled to the end until every page has come and the last result (the lowest id) is drawn.
  const lowest = String(LAST_ID - count + 1);
  await expect(async () => {
    await region.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(loaded).toBe(count);
    await expect(region.locator('[data-asset-id]').last()).toHaveAttribute('data-asset-id', lowest, { timeout: 500 });
  }).toPass({ intervals: [150], timeout });
  page.off('response', counted);
  return buttons;
}
