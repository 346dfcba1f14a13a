import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';
import { makePicture } from '../support/catalogue.ts';
import { seriousViolations } from '../support/axe.ts';

/**
 * Editors put assets in and correct them in the browser (issue #49, docs/editing.md): uploads by drag
 * and drop that survive a reload, an edit of one asset and of a selection found by search at once,
 * undo, the bin and its restore; nobody else sees an edit control or gets through an editing call.
 */

const api = '/assetportal/api/';
const EDITOR = 'journey-editor';
const ADMIN = 'journey-editor-admin';
const PLAIN = 'journey-plain-user';
const run = Date.now().toString(36);
/** The assets the journey uploaded, removed for good when it ends (the other journeys count the demo). */
const uploaded: string[] = [];

interface Dropped {
  name: string;
  base64: string;
}

/** Drops files on the upload page's drop zone, as a drag from the desktop does. */
async function drop(page: Page, files: Dropped[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      // The same file dropped twice has the same modification time, as a file on disk has.
      dt.items.add(new File([bytes], f.name, { type: 'image/jpeg', lastModified: 1_767_225_600_000 }));
    }
    return dt;
  }, files);
  const zone = page.getByRole('button', { name: /Drop files or folders here/ });
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

/** The ids of the assets a search finds. */
async function found(request: APIRequestContext, q: string, headers: Record<string, string>): Promise<string[]> {
  const res = await request.get(`${api}search`, { params: { solr_q: q, solr_rows: '100' }, headers });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs.map((d) => d.id);
}

/** The session headers of the page's logged-in account, for calls made beside the browser. */
async function headersOf(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const cookies = await page.context().cookies();
  const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    cookie: `XSRF-TOKEN=${xsrf}`,
    'x-xsrf-token': decodeURIComponent(xsrf),
  };
}

test.describe('editors (issue #49, docs/editing.md)', () => {
  test.beforeAll(() => {
    addUser(EDITOR, 'users,editors');
    addUser(ADMIN, 'users,admins');
    addUser(PLAIN, 'users');
  });

  // The catalogue is left as the other journeys expect it: the uploads go to the bin and an admin
  // removes them for good, whatever became of the journey.
  test.afterAll(async ({ playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL });
    const xsrf = { cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' };
    const login = await admin.post(`${api}session/get`, {
      data: { user: ADMIN, pass: 'journey secret' },
      headers: xsrf,
    });
    const headers = { authorization: `Bearer ${((await login.json()) as { session: string }).session}`, ...xsrf };
    const ids = [...new Set([...uploaded, ...(await found(admin, run, headers))])];
    if (ids.length === 0) return;
    await admin.post(`${api}edit/bin`, { data: { ids }, headers });
    const removed = await admin.post(`${api}edit/remove`, { data: { ids }, headers });
    expect(removed.ok(), await removed.text()).toBe(true);
  });

  test('an editor uploads three files by drag and drop (one resumed after a reload), edits one and all three, finds them at once, undoes, bins and restores', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const folder = mkdtempSync(path.join(tmpdir(), 'vitrine-editors-'));
    const names = [`harbour-${run}.jpg`, `lighthouse-${run}.jpg`, `dunes-${run}.jpg`];
    makePicture(path.join(folder, names[0]!), 'nullsrc=s=2400x1800,geq=random(1)*255:random(2)*255:random(3)*255');
    makePicture(path.join(folder, names[1]!), 'testsrc=size=800x600');
    makePicture(path.join(folder, names[2]!), 'testsrc=size=800x600');
    const files = names.map((name) => ({ name, base64: readFileSync(path.join(folder, name)).toString('base64') }));

    await logIn(page, EDITOR);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Upload' }).click();
    await expect(page.getByRole('heading', { name: 'Upload', level: 1 })).toBeVisible();
    const collection = `Shoot ${run}`;
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('Name of the new collection').fill(collection);
    await page.getByRole('button', { name: 'Create' }).click();

    // The large file's connection is cut after half of its bytes reached the server (sent here from
    // the same file: a browser's request cannot be cut part-way from outside), and the page reloaded
    // before the client's own retry gets through.
    let uploadUrl: string | undefined;
    let blocked = true;
    await page.route('**/assetportal/api/upload/files/*', async (route) => {
      if (!uploadUrl && route.request().method() === 'PATCH') uploadUrl = route.request().url();
      return blocked ? route.abort('connectionreset') : route.continue();
    });
    await drop(page, [files[0]!]);
    await expect.poll(() => uploadUrl, { timeout: 30_000 }).toBeTruthy();
    const bytes = readFileSync(path.join(folder, names[0]!));
    const half = await page.request.patch(uploadUrl!, {
      data: bytes.subarray(0, Math.floor(bytes.length / 2)),
      headers: {
        ...(await headersOf(page)),
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
    });
    expect(half.status(), await half.text()).toBe(204);
    await page.reload();
    blocked = false;
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    const offsets: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH') offsets.push(Number(r.headers()['upload-offset'] ?? 0));
    });
    await expect(page.getByRole('heading', { name: 'Upload', level: 1 })).toBeVisible();
    await page.getByLabel('Collection').selectOption({ label: collection });
    await drop(page, files);
    const links = page.getByRole('link', { name: /Open/ });
    await expect(links).toHaveCount(3, { timeout: 60_000 });
    // The cut file went on from where it stopped, not from its first byte.
    expect(Math.max(...offsets)).toBeGreaterThan(0);

    // The three new assets, found by their collection's search.
    const editor = await playwright.request.newContext({ baseURL, extraHTTPHeaders: await headersOf(page) });
    const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href') ?? ''));
    const ids = hrefs.map((h) => /asset\/(\d+)/.exec(h)?.[1] ?? '');
    expect(ids.every(Boolean)).toBe(true);
    uploaded.push(...ids);

    // The title of one, on its asset page.
    await page.goto(`/#/asset/${ids[0]}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const title = `Harbour at dawn ${run}`;
    await dialog.getByLabel('Title (EN)', { exact: true }).fill(title);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const t = Date.now();
    await expect.poll(() => found(editor, `"${title}"`, {}), { timeout: 1000 }).toEqual([ids[0]]);
    expect(Date.now() - t).toBeLessThan(1000);

    // A keyword added to all three, as a selection of the search page.
    const keyword = `seaside${run}`;
    await page.goto(`/#/search/${encodeURIComponent(run)}`);
    // Ctrl+click selects (portal-spec §2 "Selection").
    for (const id of ids)
      await page.locator(`[data-asset-id="${id}"] .vt-item-button`).click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: 'Edit selection' }).click();
    await dialog.getByLabel('Keywords (EN)', { exact: true }).fill(keyword);
    await dialog.getByLabel('Keywords (EN)', { exact: true }).press('Enter');
    await dialog.getByRole('button', { name: 'Check changes' }).click();
    await expect(dialog.getByText('3 of 3 assets will change')).toBeVisible();
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Notices come one after the other: this one follows the title's (portal-spec §2 "Notices").
    const changed = page.getByRole('status').filter({ hasText: '3 assets changed' });
    await expect(changed).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => found(editor, keyword, {}), { timeout: 1000 }).toHaveLength(3);

    // Undone from the notice: the keyword is gone again.
    await changed.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('status').filter({ hasText: '3 assets set back' })).toBeVisible();
    await expect.poll(() => found(editor, keyword, {}), { timeout: 1000 }).toHaveLength(0);

    // One to the bin, and back.
    await page.goto(`/#/asset/${ids[1]}`);
    await page.getByRole('button', { name: 'Move to bin' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => found(editor, run, {}), { timeout: 2000 }).not.toContain(ids[1]);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Bin' }).click();
    // Its title is made of its file name, as the import makes it.
    await page.getByRole('button', { name: `Restore lighthouse ${run}` }).click();
    await expect.poll(() => found(editor, run, {}), { timeout: 2000 }).toContain(ids[1]);
  });

  test('a plain user and a guest see no edit control and are refused every editing call (403)', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const guest = await playwright.request.newContext({ baseURL });
    const [someId] = await found(guest, '*', {});
    const xsrf = { cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' };
    const calls: [string, string, object | undefined][] = [
      ['GET', 'edit/options', undefined],
      ['GET', `edit/asset?id=${someId}`, undefined],
      ['POST', 'edit/preview', { ids: [someId], changes: [{ field: 'title', op: 'set', values: ['x'] }] }],
      ['POST', 'edit/apply', { ids: [someId], changes: [{ field: 'title', op: 'set', values: ['x'] }] }],
      ['POST', 'edit/bin', { ids: [someId] }],
      ['POST', 'edit/restore', { ids: [someId] }],
      ['GET', 'edit/bin', undefined],
      ['GET', `edit/history?id=${someId}`, undefined],
      ['POST', 'edit/undo', { batch: 1 }],
      ['POST', 'edit/reset', { id: someId, field: 'title' }],
      ['POST', 'edit/remove', { ids: [someId] }],
      ['POST', 'edit/collection', { name: 'Not mine' }],
      ['POST', 'upload/files', undefined],
    ];
    const tusHeaders = { 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': 'filename YS5qcGc=' };
    const refusals = async (headers: Record<string, string>) => {
      const statuses: string[] = [];
      for (const [method, url, data] of calls) {
        const res = await (method === 'GET'
          ? guest.get(`${api}${url}`, { headers })
          : guest.post(`${api}${url}`, {
              data,
              headers: url === 'upload/files' ? { ...headers, ...tusHeaders } : headers,
            }));
        statuses.push(`${url} ${res.status()}`);
      }
      return statuses;
    };
    const expected = calls.map(([, url]) => `${url} 403`);
    expect(await refusals(xsrf)).toEqual(expected);

    await logIn(page, PLAIN);
    expect(await refusals({ ...(await headersOf(page)) })).toEqual(expected);
    await page.goto(`/#/asset/${someId}`);
    await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Move to bin' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'History' })).toHaveCount(0);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Upload' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Bin' })).toHaveCount(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`at 375 px, by keyboard alone, in the ${theme} theme: the upload page and the edit dialog are usable and axe-clean`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 375, height: 667 });
      await page.addInitScript((key) => localStorage.setItem('theme', key), theme);
      await logIn(page, EDITOR);
      await page.goto('/#/upload');
      await expect(page.getByRole('heading', { name: 'Upload', level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // With a collection chosen, the drop zone opens the file chooser with Enter.
      await page.getByLabel('Collection').selectOption({ index: 1 });
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: /Drop files or folders here/ }).focus();
      await page.keyboard.press('Enter');
      expect((await chooser).isMultiple()).toBe(true);

      const guest = await found(page.request, '*', {});
      await page.goto(`/#/asset/${guest[0]}`);
      const edit = page.getByRole('button', { name: 'Edit', exact: true });
      await edit.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('Title (EN)', { exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // Escape closes it and gives the focus back to where it came from.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(edit).toBeFocused();
    });
  }
});
