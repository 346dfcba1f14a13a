import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/journey.ts';
import { importFolder, makePicture } from '../support/catalogue.ts';

const API = '/assetportal/api/';

test.use({ locale: 'en-GB' });

test.describe('bookmarks (portal-spec §8 "Bookmarks": verify_error)', () => {
  let folder: string;
  test.beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'vitrine-removal-'));
    makePicture(path.join(folder, 'to-be-removed.png'));
  });
  // Whatever became of the journey, the picture leaves the catalogue again (the import marks it gone),
  // so later journeys see the demo as it was and never pick an asset whose file is not there.
  test.afterAll(() => {
    rmSync(path.join(folder, 'to-be-removed.png'), { force: true });
    importFolder(folder);
    rmSync(folder, { recursive: true, force: true });
  });

  test('an asset removed from the catalogue shows the notice and disappears from the bookmark list', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await page.addInitScript(() => {
      if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
    });
    importFolder(folder);
    const found = await request.get(`${API}search`, {
      params: { solr_q: '*', solr_sort: 'imp_date desc', solr_rows: '1' },
    });
    const [doc] = ((await found.json()) as { response: { docs: { id: string; filename?: string }[] } }).response.docs;
    const id = doc?.id ?? '';

    await page.goto(`/#/asset/${id}`);
    const actions = page.getByRole('toolbar', { name: 'Asset actions' });
    await actions.getByRole('button', { name: 'Add to bookmarks' }).click();
    await expect(actions.getByRole('button', { name: 'Remove from bookmarks' })).toBeVisible();
    await page.goto('/#/bookmark');
    // A guest's bookmarks stay in this browser: the new one is the only one.
    const cards = page.getByRole('list', { name: 'Bookmarked assets' }).getByRole('listitem');
    await expect(cards).toHaveCount(1, { timeout: 15_000 });

    // The file leaves the folder; the next import marks its asset gone.
    rmSync(path.join(folder, 'to-be-removed.png'));
    importFolder(folder);

    await page.reload();
    await expect(
      page.getByRole('alert').filter({ hasText: 'One/some asset/s of your bookmarks are no longer available' }),
    ).toBeVisible({ timeout: 15_000 });
    await expect(cards).toHaveCount(0);
    await expect(page.getByText('Your bookmark list is empty.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('bookmarks'))).not.toContain(`"${id}"`);
  });
});
