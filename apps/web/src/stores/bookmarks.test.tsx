import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createQueryClient, Providers } from '../app/Providers.tsx';
import { ToastHost } from '../components/ToastHost.tsx';
import { api, server, sessionAnswer, sessionHandlers } from '../test/msw.ts';
import { startTestServer } from '../test/testServer.ts';
import { useBookmarks } from './bookmarks.ts';
import { createI18n } from './i18n.ts';
import { loadSession } from './session.ts';

startTestServer(server, 'bypass');

/** Buttons for each way the portal changes the list: one asset, a selection, the whole list. */
function Changes() {
  const bookmarks = useBookmarks();
  return (
    <>
      <output aria-label="bookmarked">{bookmarks.ids.join(',')}</output>
      <button type="button" disabled={bookmarks.isLoading} onClick={() => bookmarks.toggle('3')}>
        toggle 3
      </button>
      <button type="button" disabled={bookmarks.isLoading} onClick={() => bookmarks.add(['4', '5'])}>
        add selection
      </button>
      <button type="button" disabled={bookmarks.isLoading} onClick={() => bookmarks.remove(['1', '2'])}>
        remove selection
      </button>
      <button type="button" disabled={bookmarks.isLoading} onClick={() => bookmarks.replace(['1'])}>
        save again
      </button>
    </>
  );
}

/** A signed-in user with bookmarks 1 and 2, whose saves answer as the server does (or fail). */
async function renderChanges(locale: string, saves: 'work' | 'fail' = 'work') {
  const saved: string[][] = [];
  server.use(
    ...sessionHandlers(sessionAnswer({ user: 'ada' })),
    http.get(api('config/bookmarks'), () => HttpResponse.json([{ id: '1' }, { id: '2' }])),
    http.post(api('config/bookmarks'), async ({ request }) => {
      const body = (await request.json()) as { id: string }[];
      if (saves === 'fail') return HttpResponse.json({ error: 'internal', message: 'down' }, { status: 500 });
      saved.push(body.map((b) => b.id));
      return HttpResponse.json(body);
    }),
  );
  localStorage.setItem('locale', locale);
  await loadSession();
  const i18n = await createI18n();
  render(
    <Providers i18n={i18n} queryClient={createQueryClient()}>
      <Changes />
      <ToastHost />
    </Providers>,
  );
  await waitFor(() => expect(screen.getByRole('status', { name: 'bookmarked' })).toHaveTextContent('1,2'));
  return { saved, user: userEvent.setup() };
}

describe('bookmark notices (portal-spec §8 "Bookmarks": saved, added, removed)', () => {
  it.each([
    ['en', 'Added to bookmarks', 'Removed from bookmarks'],
    ['de', 'Zur Merkliste hinzugefügt', 'Von der Merkliste entfernt'],
  ])(
    'say added and removed, for one asset and for a selection, once the server has them (%s)',
    async (locale, added, removed) => {
      const { saved, user } = await renderChanges(locale);
      await user.click(screen.getByRole('button', { name: 'toggle 3' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(added);
      expect(saved).toEqual([['1', '2', '3']]);
      await user.click(screen.getByRole('button', { name: 'toggle 3' }));
      await waitFor(() => expect(saved).toHaveLength(2));
      await user.click(screen.getByRole('button', { name: 'add selection' }));
      await user.click(screen.getByRole('button', { name: 'remove selection' }));
      await waitFor(() =>
        expect(saved).toEqual([
          ['1', '2', '3'],
          ['1', '2'],
          ['1', '2', '4', '5'],
          ['4', '5'],
        ]),
      );
      // The notices come one after the other, in the order of the changes, each closed by its button.
      for (const text of [added, removed, added, removed]) {
        const notice = await screen.findByRole('alert');
        expect(notice).toHaveTextContent(text);
        await user.click(within(notice).getByRole('button', { name: locale === 'de' ? 'Schließen' : 'Close' }));
        await waitFor(() => expect(notice).not.toBeInTheDocument());
      }
      expect(screen.queryByRole('alert')).toBeNull();
    },
  );

  it.each([
    ['en', 'Bookmarks saved'],
    ['de', 'Merkliste gespeichert'],
  ])('say "Bookmarks saved" politely when the whole list is saved again (%s)', async (locale, text) => {
    const { saved, user } = await renderChanges(locale);
    await user.click(screen.getByRole('button', { name: 'save again' }));
    const notice = (await screen.findByText(text)).closest('[role]');
    expect(notice).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saved).toEqual([['1']]);
  });

  it('says nothing is saved, and not "saved", when the save fails (portal-spec §8 "Bookmarks": error)', async () => {
    const { user } = await renderChanges('en', 'fail');
    await user.click(screen.getByRole('button', { name: 'save again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The bookmarks could not be saved.');
    expect(screen.queryByText('Bookmarks saved')).toBeNull();
  });
});
