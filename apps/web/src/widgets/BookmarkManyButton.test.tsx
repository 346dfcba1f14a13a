import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../stores/i18n.ts';
import { createQueryClient, Providers } from '../app/Providers.tsx';
import { loadSession } from '../stores/session.ts';
import { GUEST_BOOKMARKS_KEY } from '../stores/bookmarks.ts';
import { needsConfirmation } from '../lib/maxAssets.ts';
import { api, server } from '../test/msw.ts';
import { BookmarkManyButton } from './BookmarkManyButton.tsx';
import { startTestServer } from '../test/testServer.ts';

startTestServer(server, 'bypass');

/** The button for `count` found assets as a guest, with info/downloads answering `maxAssets`. */
async function renderButton(count: number, maxAssets: number) {
  server.use(http.get(api('info/downloads'), () => HttpResponse.json({ max_assets: maxAssets })));
  localStorage.setItem('locale', 'en');
  await loadSession();
  const i18n = await createI18n();
  const fetched: number[] = [];
  const fetchIds = () => {
    fetched.push(count);
    return Promise.resolve(Array.from({ length: count }, (_, i) => String(i + 1)));
  };
  render(
    <Providers i18n={i18n} queryClient={createQueryClient()}>
      <BookmarkManyButton count={count} fetchIds={fetchIds}>
        Bookmark found assets
      </BookmarkManyButton>
    </Providers>,
  );
  const button = await screen.findByRole('button', { name: 'Bookmark found assets' });
  // The button waits for the limit before the person can act on it.
  await waitFor(() => expect(button).toBeEnabled());
  return { button, fetched, user: userEvent.setup() };
}

const stored = () => JSON.parse(localStorage.getItem(GUEST_BOOKMARKS_KEY) ?? '[]') as string[];

describe('bookmarking many assets (portal-spec §4 "Bookmark toggle": confirmation over maxAssets)', () => {
  it('asks only when the count exceeds maxAssets, and never for -1', () => {
    expect(needsConfirmation(11, 10)).toBe(true);
    expect(needsConfirmation(10, 10)).toBe(false);
    expect(needsConfirmation(100_000, -1)).toBe(false);
  });

  it('above maxAssets asks first with the count and fetches the ids only after confirming', async () => {
    const { button, fetched, user } = await renderButton(11, 10);
    await user.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Do you really want to bookmark 11 assets?')).toBeInTheDocument();
    expect(fetched).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(stored()).toHaveLength(11));
    expect(fetched).toEqual([11]);
  });

  it('cancelling fetches nothing and bookmarks nothing', async () => {
    const { button, fetched, user } = await renderButton(11, 10);
    await user.click(button);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetched).toEqual([]);
    expect(stored()).toEqual([]);
  });

  it('at maxAssets bookmarks at once without asking', async () => {
    const { button, fetched, user } = await renderButton(10, 10);
    await user.click(button);
    await waitFor(() => expect(stored()).toHaveLength(10));
    expect(fetched).toEqual([10]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
