import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { IMAGE_WARNING_BYTES } from '@vitrine/contract/config';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, failure, closeEntryNotice, adminServer, withFailingPost } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5): failures and files',
  { timeout: 60_000 },
  () => {
    it('says when the stored config cannot be loaded: every section shows it, and nothing can be saved (admin-spec §4, §8)', async () => {
      adminServer(defaultGlobalConfig);
      server.use(http.get(api('config/global/stored'), failure));
      const { user } = await renderApp('/admin/general');
      // The notice, and the section's own word for the unavailable config.
      await waitFor(() => expect(screen.getAllByText('The configuration could not be loaded.')).toHaveLength(2), slow);
      expect(
        screen.getByText('The configuration could not be loaded.', { selector: '.MuiSnackbar-root *' }),
      ).toBeVisible();
      const tabs = screen.getByRole('navigation', { name: 'Administration' });
      for (const section of ['General', 'Appearance', 'Search settings']) {
        await user.click(within(tabs).getByRole('link', { name: section }));
        expect(await screen.findByRole('heading', { level: 2, name: section })).toBeInTheDocument();
        expect(screen.getAllByText('The configuration could not be loaded.').length).toBeGreaterThanOrEqual(1);
        expect(screen.queryByRole('button', { name: 'Save configuration' })).not.toBeInTheDocument();
        expect(screen.queryByLabelText(/^Website title/)).not.toBeInTheDocument();
      }
    });

    it('says when the config cannot be saved, and keeps the edit unsaved (admin-spec §4, §8)', async () => {
      const { user } = await withFailingPost('config/global', '/admin/general');
      const title = screen.getByLabelText(/^Website title/);
      await user.clear(title);
      await user.type(title, 'Archiv');
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      expect(await screen.findByText('Error - could not save configuration!')).toBeInTheDocument();
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      expect(title).toHaveValue('Archiv');
      expect(screen.getByRole('button', { name: 'Save configuration' })).toBeEnabled();
    });

    it('says when a new language cannot be stored (admin-spec §4, §8)', async () => {
      const { user } = await withFailingPost('config/translations', '/admin/language');
      await user.click(screen.getByRole('button', { name: 'Add language' }));
      const dialog = screen.getByRole('dialog', { name: 'Add language' });
      await user.type(within(dialog).getByLabelText(/^Name/), 'Français');
      await user.type(within(dialog).getByLabelText(/^Code/), 'fr');
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(await screen.findByText('The language could not be updated.')).toBeInTheDocument();
    });

    it('says when a custom page cannot be saved, and keeps the draft (admin-spec §8)', async () => {
      const { user } = await withFailingPost('config/custom_html', '/admin/editor');
      const heading = await screen.findByLabelText('Heading');
      await user.type(heading, ' und Kontakt');
      await user.click(screen.getByRole('button', { name: 'Save page' }));
      expect(await screen.findByText('The page could not be saved.')).toBeInTheDocument();
      expect(heading).toHaveValue('Impressum und Kontakt');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save page' })).toBeEnabled();
    });

    it('says when a file cannot be saved (admin-spec §8)', async () => {
      const { user } = await withFailingPost('config/logo', '/admin/appearance');
      const logo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
      await user.upload(screen.getByLabelText('Logo'), logo);
      expect(await screen.findByText('The file could not be saved.')).toBeInTheDocument();
    });

    it('deletes a stored file and says so (admin-spec §4 "saving with no file deletes it", §8)', async () => {
      adminServer(defaultGlobalConfig);
      const bodies: (string | null)[] = [];
      server.use(
        http.get(api('config'), () =>
          HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'logo']))),
        ),
        http.post(api('config/logo'), async ({ request }) => {
          bodies.push(request.headers.get('content-type'));
          return HttpResponse.json({ saved: false, deleted: true });
        }),
      );
      const { user } = await renderApp('/admin/appearance');
      await closeEntryNotice(user);
      await user.click(await screen.findByRole('button', { name: 'Logo: Delete' }));
      expect(await screen.findByText('File deleted')).toBeInTheDocument();
      expect(bodies).toHaveLength(1);
      expect(bodies[0] ?? '').not.toMatch(/multipart/);
    });

    it('uploads the favicon from the appearance section; the page then links it (admin-spec §2 "appearance", §7)', async () => {
      adminServer(defaultGlobalConfig);
      let stored = false;
      const uploads: { size: number; type: string }[] = [];
      server.use(
        http.get(api('config'), () =>
          HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'favicon' && stored]))),
        ),
        http.post(api('config/favicon'), async ({ request }) => {
          const file = (await request.formData()).get('file') as File;
          uploads.push({ size: file.size, type: file.type });
          stored = true;
          return HttpResponse.json({ saved: true, deleted: false });
        }),
      );
      const { user } = await renderApp('/admin/appearance');
      await closeEntryNotice(user);
      const row = screen.getByRole('button', { name: 'Favicon: Upload' }).parentElement as HTMLElement;
      expect(within(row).getByText('Not uploaded')).toBeInTheDocument();
      expect(within(row).getByText('The change is visible after reloading the page.')).toBeInTheDocument();
      const icon = new File([new Uint8Array([0, 0, 1, 0])], 'favicon.ico', { type: 'image/x-icon' });
      await user.upload(screen.getByLabelText('Favicon'), icon);
      expect(await screen.findByText('File saved')).toBeInTheDocument();
      expect(uploads).toEqual([{ size: 4, type: 'image/x-icon' }]);
      // The files' flags are asked again: the row says a file is stored, and the page links it.
      await waitFor(() => expect(within(row).getByText('Uploaded')).toBeInTheDocument());
      expect(document.head.querySelector('link[rel~="icon"]')?.getAttribute('href')).toBe(api('config/favicon'));
    });

    it('warns of an image over 1 MB and uploads it all the same (admin-spec §5, §8)', async () => {
      adminServer(defaultGlobalConfig);
      const sizes: number[] = [];
      server.use(
        http.post(api('config/dashboardHero'), async ({ request }) => {
          sizes.push(((await request.formData()).get('file') as File).size);
          return HttpResponse.json({ saved: true, deleted: false });
        }),
      );
      const { user } = await renderApp('/admin/dashboard');
      await closeEntryNotice(user);
      const hero = new File([new Uint8Array(IMAGE_WARNING_BYTES + 1)], 'hero.png', { type: 'image/png' });
      await user.upload(screen.getByLabelText('Hero image'), hero);
      const warning = (
        await screen.findByText('The image is larger than 1 MB. A smaller JPG or webp file is recommended.')
      ).closest('[role="alert"]');
      await waitFor(() => expect(sizes).toEqual([IMAGE_WARNING_BYTES + 1]));
      await user.click(within(warning as HTMLElement).getByRole('button', { name: 'Close' }));
      expect(await screen.findByText('File saved')).toBeInTheDocument();
    });
  },
);
