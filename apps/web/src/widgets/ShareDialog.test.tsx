import { Button } from '@mui/material';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../stores/i18n.ts';
import { createQueryClient, Providers } from '../app/Providers.tsx';
import { enterShare } from '../stores/session.ts';
import { useShareSettings } from '../stores/shares.ts';
import { api, configHandlers, server, sessionAnswer } from '../test/msw.ts';
import { startTestServer } from '../test/testServer.ts';
import { useShareDialog } from './ShareDialog.tsx';
import { ToastHost } from '../components/ToastHost.tsx';

startTestServer(server, 'bypass');
vi.setConfig({ testTimeout: 15_000 });

function Harness({ plainCopy }: { plainCopy: () => void }) {
  const { share, dialog } = useShareDialog();
  const settings = useShareSettings();
  return (
    <>
      {settings.data && <p>rights known</p>}
      <Button onClick={() => share(['7', '8'], plainCopy)}>Share</Button>
      {dialog}
    </>
  );
}

async function renderHarness(mayCreate: boolean, locale: 'en' | 'de' = 'en') {
  localStorage.setItem('locale', locale);
  const created: unknown[] = [];
  server.use(
    ...configHandlers(),
    http.get(api('share/settings'), () =>
      HttpResponse.json({
        mayCreate,
        maxAssets: 1000,
        maxDays: 90,
        downloadSets: mayCreate ? [{ id: 0, title: 'Original file' }] : [],
      }),
    ),
    http.post(api('share/create'), async ({ request }) => {
      created.push(await request.json());
      return HttpResponse.json({
        token: 'T'.repeat(43),
        share: {
          id: 1,
          title: 'Press',
          assetIds: ['7', '8'],
          createdAt: '2026-11-23T10:00:00.000Z',
          expiresAt: null,
          revokedAt: null,
          hasPassword: true,
          downloadSets: [0],
          views: 0,
          downloads: 0,
          state: 'active',
        },
      });
    }),
  );
  act(() => enterShare(sessionAnswer({ user: 'anna', session: 'anna-token' })));
  const plainCopy = vi.fn();
  render(
    <Providers i18n={await createI18n()} queryClient={createQueryClient()}>
      <Harness plainCopy={plainCopy} />
      <ToastHost />
    </Providers>,
  );
  return { created, plainCopy, user: userEvent.setup() };
}

describe('share dialog (docs/security.md "Share links")', () => {
  it('makes a link with a password and the chosen sets for a user who may share, and shows it once', async () => {
    const { created, plainCopy, user } = await renderHarness(true);
    // The right to share arrives with the settings call.
    await screen.findByText('rights known');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a share link' });
    expect(dialog).toHaveTextContent('see the 2 chosen assets');
    await user.type(within(dialog).getByLabelText('Password (optional, at least 8 characters)'), 'open sesame');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Original file' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const link = await within(dialog).findByRole('textbox', { name: 'Share link' });
    expect(link).toHaveValue(`${window.location.origin}${window.location.pathname}#/share/${'T'.repeat(43)}`);
    expect(created).toEqual([{ assetIds: ['7', '8'], password: 'open sesame', downloadSets: [0] }]);
    expect(plainCopy).not.toHaveBeenCalled();
  });

  it('sends no password shorter than 8 characters, and offers expiry days up to the longest lifetime', async () => {
    const { created, user } = await renderHarness(true);
    await screen.findByText('rights known');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a share link' });
    const password = within(dialog).getByLabelText('Password (optional, at least 8 characters)');
    await user.type(password, 'seven77');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('button', { name: 'Create link' })).toBeDisabled();
    await user.type(password, '8');
    expect(password).toHaveAttribute('aria-invalid', 'false');
    expect(within(dialog).getByRole('button', { name: 'Create link' })).toBeEnabled();
    expect(created).toEqual([]);

    const last = Date.parse(
      within(dialog).getByLabelText('Expires on (optional, at most 90 days ahead)').getAttribute('max') ?? '',
    );
    const day = 86_400_000;
    expect(last).toBeGreaterThan(Date.now() + 88 * day);
    expect(last).toBeLessThanOrEqual(Date.now() + 90 * day);
  });

  it.each([
    ['en', 'Create a share link', 'Create link', 'Copy link', 'The link could not be copied.'],
    ['de', 'Freigabelink erstellen', 'Link erstellen', 'Link kopieren', 'Der Link konnte nicht kopiert werden.'],
  ] as const)(
    'portal-spec §8 / §2 "Copy share link" error (info): in %s, says so when the clipboard refuses the link',
    async (locale, title, create, copy, error) => {
      const { user } = await renderHarness(true, locale);
      await screen.findByText('rights known');
      await user.click(screen.getByRole('button', { name: 'Share' }));
      const dialog = await screen.findByRole('dialog', { name: title });
      await user.click(within(dialog).getByRole('button', { name: create }));
      await within(dialog).findByRole('textbox');
      // A browser refuses when the page lacks the permission or the focus.
      const writeText = vi
        .spyOn(navigator.clipboard, 'writeText')
        .mockRejectedValue(new DOMException('Write permission denied.', 'NotAllowedError'));
      try {
        await user.click(within(dialog).getByRole('button', { name: copy }));
        expect(writeText).toHaveBeenCalledTimes(1);
      } finally {
        writeText.mockRestore();
      }
      // The open dialog hides the rest of the page from the accessibility tree, the notice with it.
      const notice = (await screen.findByText(error)).closest('[role]');
      expect(notice).toHaveAttribute('role', 'alert');
      expect(notice).toHaveClass('MuiAlert-colorInfo');
    },
  );

  it('copies the plain link for a user whose group may not share', async () => {
    const { plainCopy, user } = await renderHarness(false);
    await screen.findByText('rights known');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(plainCopy).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
