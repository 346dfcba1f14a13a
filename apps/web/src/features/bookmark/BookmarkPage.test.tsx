import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { bookmarkBatches, CHARS_PER_ID, GUEST_BOOKMARKS_KEY, URL_LIMIT } from '../../stores/bookmarks.ts';
import { api, configHandlers, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { touch } from '../../test/touch.ts';
import { BookmarkCard, CARD_MIN_WIDTH } from './BookmarkCard.tsx';
import { createQueryClient, Providers } from '../../app/Providers.tsx';
import { createI18n } from '../../stores/i18n.ts';
import { createMemoryRouter, RouterProvider } from '../../lib/router.tsx';
import { cardColumns } from './BookmarkPage.tsx';
import { expectSizedPicture } from '../../test/pictures.ts';
import { mediaQueryList } from '../../test/mediaQueries.ts';

startTestServer(server, 'bypass');

/** A catalogue of `ids` whose asset lookups record their full address; `gone` ids are not answered. */
function catalogue(gone: Set<string> = new Set()) {
  const lookups: string[] = [];
  server.use(
    http.get(api('assets'), ({ request }) => {
      lookups.push(request.url);
      const ids = (new URL(request.url).searchParams.get('assetid') ?? '').split(',').filter(Boolean);
      const docs = ids
        .filter((id) => !gone.has(id))
        .map((id) => ({ id, url: `/media/thumb/${id}?exp=1&sig=x`, title: `Asset ${id}` }));
      return HttpResponse.json({ response: { docs } });
    }),
  );
  return lookups;
}

function signedInWith(ids: string[]) {
  const saved: string[][] = [];
  server.use(
    ...sessionHandlers(sessionAnswer({ user: 'ada' })),
    http.get(api('config/bookmarks'), () => HttpResponse.json(ids.map((id) => ({ id })))),
    http.post(api('config/bookmarks'), async ({ request }) => {
      const body = (await request.json()) as { id: string }[];
      saved.push(body.map((b) => b.id));
      return HttpResponse.json(body);
    }),
  );
  return saved;
}

/** Opens the bookmark page and clicks the bookmark toggle of its first card. */
async function removeFirstBookmark() {
  const { user } = await renderApp('/bookmark');
  await screen.findAllByTestId('bookmark-card', {}, { timeout: 15_000 });
  const [first] = screen.getAllByRole('button', { name: 'Remove from bookmarks' });
  if (!first) throw new Error('no bookmark toggle');
  await user.click(first);
}

describe('bookmark verification batches (portal-spec §7: requests under 2048 characters, 8 per id)', () => {
  it('keeps every batch under the limit and loses no id', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => String(i + 1));
    const base = 60;
    const batches = bookmarkBatches(ids, base);
    expect(batches.flat()).toEqual(ids);
    for (const batch of batches) expect(base + batch.length * CHARS_PER_ID).toBeLessThan(URL_LIMIT);
    // The batches are as large as the rule allows: one more id would reach the limit.
    const first = batches[0] ?? [];
    expect(base + (first.length + 1) * CHARS_PER_ID).toBeGreaterThanOrEqual(URL_LIMIT);
  });

  it('counts long ids at their encoded length, so no request passes the limit', () => {
    const ids = Array.from({ length: 400 }, (_, i) => String(1_000_000_000 + i));
    const batches = bookmarkBatches(ids, 60);
    expect(batches.flat()).toEqual(ids);
    // Each id travels with an encoded comma (%2C): 13 characters, more than the 8 the rule counts.
    for (const batch of batches) expect(60 + batch.length * 13).toBeLessThan(URL_LIMIT);
  });

  it('asks for 300 bookmarks in several requests, each address under 2048 characters', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => String(1_000_000 + i));
    signedInWith(ids);
    const lookups = catalogue();
    await renderApp('/bookmark');
    expect(await screen.findByText('300 bookmarked assets', {}, { timeout: 15_000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('bookmark-card')).toHaveLength(300), { timeout: 10_000 });
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    for (const url of lookups) expect(url.length).toBeLessThan(URL_LIMIT);
    const asked = lookups.flatMap((u) => (new URL(u).searchParams.get('assetid') ?? '').split(','));
    expect(asked.sort()).toEqual([...ids].sort());
  }, 60_000);

  it('shows the verify_error notice and saves the list again without assets that are gone', async () => {
    const saved = signedInWith(['11', '12', '13']);
    catalogue(new Set(['12']));
    const { user } = await renderApp('/bookmark');
    expect(
      await screen.findByText('One/some asset/s of your bookmarks are no longer available', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(saved).toEqual([['11', '13']]), { timeout: 10_000 });
    // Once the warning is closed, the re-saved list is confirmed (portal-spec §8 "Bookmarks": saved).
    await user.click(screen.getByRole('button', { name: 'Close' }));
    const notice = await screen.findByText('Bookmarks saved', {}, { timeout: 10_000 });
    expect(notice.closest('[role]')).toHaveAttribute('role', 'status');
    const list = await screen.findByRole('list', { name: 'Bookmarked assets' }, { timeout: 10_000 });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2), { timeout: 10_000 });
  }, 40_000);
});

describe('bookmark list (portal-spec §2 "Bookmark list")', () => {
  it('shows each card’s thumbnail in the width it is drawn at; the first row is fetched first', async () => {
    signedInWith(['1', '2', '3', '4', '5']);
    catalogue();
    await renderApp('/bookmark');
    await waitFor(() => expect(screen.getAllByTestId('bookmark-card')).toHaveLength(5), { timeout: 15_000 });
    const pictures = screen.getAllByTestId('bookmark-card').map((card) => card.querySelector('img'));
    // A card is at most two columns of 220 px and their gap wide.
    const sizes = '(max-width: 456px) 100vw, 456px';
    const srcset = (id: string) =>
      `/media/thumb/${id}?exp=1&sig=x&w=400 400w, /media/thumb/${id}?exp=1&sig=x&w=800 800w`;
    expectSizedPicture(pictures[0], { srcset: srcset('1'), sizes, first: true });
    expectSizedPicture(pictures[4], { srcset: srcset('5'), sizes, first: false });
    expect(pictures[4]).toHaveAttribute('loading', 'lazy');
  }, 30_000);

  it('draws the cards with the configured border width (bookmark.options.border_width), a selected one 1 px wider', async () => {
    signedInWith(['1', '2']);
    catalogue();
    server.use(...configHandlers({ bookmark: { options: { border_width: 3 } } }));
    const { user } = await renderApp('/bookmark');
    await waitFor(() => expect(screen.getAllByTestId('bookmark-card')).toHaveLength(2), { timeout: 15_000 });
    const [first, second] = screen.getAllByTestId('bookmark-card');
    if (!first || !second) throw new Error('no cards');
    expect(getComputedStyle(second).borderTopWidth).toBe('3px');
    await user.click(within(first).getByRole('checkbox'));
    await waitFor(() => expect(getComputedStyle(first).borderTopWidth).toBe('4px'));
  }, 30_000);

  it('admin-spec §3 "bookmark" options.border_width (default 2, decision 0268): a config without it draws 2 px cards, and so does a card given none', async () => {
    signedInWith(['1']);
    catalogue();
    server.use(...configHandlers({ bookmark: { options: { card_height: 232 } } }));
    await renderApp('/bookmark');
    await waitFor(() => expect(screen.getAllByTestId('bookmark-card')).toHaveLength(1), { timeout: 15_000 });
    expect(getComputedStyle(screen.getByTestId('bookmark-card')).borderTopWidth).toBe('2px');
    cleanup();

    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: <BookmarkCard doc={{ id: '9' }} title="Harbour" selected={false} onSelect={() => undefined} />,
        },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <Providers i18n={await createI18n()} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>,
    );
    const card = await screen.findByTestId('bookmark-card');
    expect(getComputedStyle(card).borderTopWidth).toBe('2px');
  }, 30_000);

  it.each([
    { screen: 'a medium or larger screen', medium: true, cardHeight: 300, card: '300 px', image: '268px' },
    {
      screen: 'a medium or larger screen',
      medium: true,
      cardHeight: undefined,
      card: '232 px (default)',
      image: '200px',
    },
    { screen: 'a phone', medium: false, cardHeight: 300, card: '300 px', image: '200px' },
  ])(
    'on $screen, a card $card high (bookmark.options.card_height) has a picture $image high',
    async (c) => {
      // jsdom lays nothing out: the screen is what its media queries answer.
      vi.stubGlobal('matchMedia', (query: string) =>
        mediaQueryList(query, c.medium && query.includes('min-width:900px')),
      );
      onTestFinished(() => void vi.unstubAllGlobals());
      signedInWith(['1']);
      catalogue();
      if (c.cardHeight !== undefined)
        server.use(...configHandlers({ bookmark: { options: { card_height: c.cardHeight } } }));
      await renderApp('/bookmark');
      const card = await screen.findByTestId('bookmark-card', {}, { timeout: 15_000 });
      await waitFor(() => expect(getComputedStyle(card.querySelector('img') as Element).height).toBe(c.image));
    },
    30_000,
  );

  it('acts on all until something is selected; deleting a selection does not ask, deleting all does', async () => {
    const saved = signedInWith(['1', '2', '3', '4']);
    catalogue();
    const { user } = await renderApp('/bookmark');
    await screen.findAllByTestId('bookmark-card', {}, { timeout: 15_000 });
    const toolbar = screen.getByRole('toolbar', { name: 'Bookmark actions' });
    expect(within(toolbar).getByRole('button', { name: 'Delete all' })).toBeInTheDocument();
    expect(within(toolbar).getByRole('button', { name: 'Download all' })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Asset 1' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Asset 3' }));
    await user.keyboard('{/Shift}');
    expect(screen.getAllByRole('checkbox', { checked: true }).map((c) => c.getAttribute('aria-label'))).toEqual([
      'Asset 1',
      'Asset 2',
      'Asset 3',
    ]);
    expect(within(toolbar).getByRole('button', { name: 'Download selected' })).toBeInTheDocument();
    await user.click(within(toolbar).getByRole('button', { name: 'Delete selected' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(saved).toEqual([['4']]));

    await user.click(within(toolbar).getByRole('button', { name: 'Delete all' }));
    // The question names the dialog (a dialog without a name is a serious axe violation).
    const dialog = await screen.findByRole('dialog', { name: 'Do you really want to delete all bookmarks?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(saved).toEqual([['4'], []]));
    expect(await screen.findByText('Your bookmark list is empty.')).toBeInTheDocument();
  }, 40_000);

  it('shares several bookmarks as one link to the search page limited to them, and says the links are copied (portal-spec §4 "Shared links")', async () => {
    signedInWith(['1', '2', '3']);
    catalogue();
    // user-event stands in for the browser's clipboard.
    const { user } = await renderApp('/bookmark');
    await screen.findAllByTestId('bookmark-card', {}, { timeout: 15_000 });
    const toolbar = screen.getByRole('toolbar', { name: 'Bookmark actions' });
    await user.click(within(toolbar).getByRole('button', { name: 'Share all' }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(
        `${window.location.origin}${window.location.pathname}#/search/*?id=1,2,3`,
      ),
    );
    // portal-spec §8 "Copy share link": successAll for several, success for one.
    const copiedAll = await screen.findByRole('alert');
    expect(copiedAll).toHaveTextContent('Links copied to the clipboard');
    await user.click(within(copiedAll).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(copiedAll).not.toBeInTheDocument());
    await user.click(screen.getByRole('checkbox', { name: 'Asset 2' }));
    await user.click(within(toolbar).getByRole('button', { name: 'Share selected' }));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(
        `${window.location.origin}${window.location.pathname}#/asset/2`,
      ),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Link copied to the clipboard$/);
  }, 40_000);

  it('§4 Selection on phones: a long press on a card toggles it like ctrl click, and says how many are selected', async () => {
    signedInWith(['1', '2', '3']);
    catalogue();
    const { user } = await renderApp('/bookmark');
    await screen.findAllByTestId('bookmark-card', {}, { timeout: 15_000 });
    const card = (name: string) => screen.getByRole('checkbox', { name });
    await touch(user, card('Asset 1'));
    await touch(user, card('Asset 3'));
    expect(screen.getAllByRole('checkbox', { checked: true }).map((c) => c.getAttribute('aria-label'))).toEqual([
      'Asset 1',
      'Asset 3',
    ]);
    expect(screen.getByText(/3 bookmarked assets · 2 selected/)).toHaveAttribute('role', 'status');
    await touch(user, card('Asset 1'));
    expect(card('Asset 1')).not.toBeChecked();
    expect(card('Asset 3')).toBeChecked();
    // A finger that moves more than 10 px adds nothing.
    await touch(user, card('Asset 2'), { moveX: 12, whileHeld: () => expect(card('Asset 2')).not.toBeChecked() });
  }, 40_000);

  it('rolls a removal back and says so when the save fails (portal-spec §8 "Bookmarks": error)', async () => {
    signedInWith(['7', '8']);
    server.use(
      http.post(api('config/bookmarks'), () =>
        HttpResponse.json({ error: 'internal', message: 'Something went wrong.' }, { status: 500 }),
      ),
    );
    catalogue();
    await removeFirstBookmark();
    expect(await screen.findByText('The bookmarks could not be saved.', {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Remove from bookmarks' })).toHaveLength(2), {
      timeout: 10_000,
    });
    expect(await screen.findByText('2 bookmarked assets', {}, { timeout: 10_000 })).toBeInTheDocument();
  }, 40_000);

  it('keeps a guest’s bookmarks in local storage and never calls the server for them', async () => {
    localStorage.setItem(GUEST_BOOKMARKS_KEY, JSON.stringify(['5', '6']));
    let serverCalls = 0;
    server.use(
      http.all(api('config/bookmarks'), () => {
        serverCalls++;
        return HttpResponse.json([]);
      }),
    );
    catalogue();
    await removeFirstBookmark();
    await waitFor(() => expect(JSON.parse(localStorage.getItem(GUEST_BOOKMARKS_KEY) ?? '[]')).toEqual(['6']));
    expect(serverCalls).toBe(0);
  }, 40_000);
});

describe('bookmark cards in a row (admin-spec §3 "bookmark": columns)', () => {
  it('caps a row at the configured columns and keeps each card at least its minimum width', () => {
    expect(cardColumns(4)).toBe(`repeat(auto-fill, minmax(max(${CARD_MIN_WIDTH}px, calc((100% - 48px) / 4)), 1fr))`);
    expect(cardColumns(1)).toContain('calc((100% - 0px) / 1)');
    // Nonsense is read as one column, not as a broken grid.
    expect(cardColumns(0)).toContain('/ 1)');
  });
});

describe('portal-spec §2 "Bookmarks": cards load within 400 px of the viewport, a skeleton first', () => {
  it('shows skeletons until a card nears the viewport, then its picture, once', async () => {
    // The browser's observer, driven by the test: each card is told when it nears the viewport.
    const observers: { callback: IntersectionObserverCallback; margin?: string; targets: Element[] }[] = [];
    class NearObserver {
      readonly entry: (typeof observers)[number];
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        this.entry = { callback, margin: options?.rootMargin, targets: [] };
        observers.push(this.entry);
      }
      observe(target: Element) {
        this.entry.targets.push(target);
      }
      disconnect() {
        this.entry.targets = [];
      }
    }
    vi.stubGlobal('IntersectionObserver', NearObserver);
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    catalogue();
    signedInWith(['1', '2', '3']);
    await renderApp('/bookmark');
    const cards = await screen.findAllByTestId('bookmark-card', {}, { timeout: 15_000 });
    expect(cards).toHaveLength(3);
    for (const card of cards) {
      expect(card.querySelector('.MuiSkeleton-root')).not.toBeNull();
      expect(card.querySelector('img')).toBeNull();
    }
    const watching = observers.filter((o) => o.targets.length > 0);
    expect(watching.map((o) => o.margin)).toEqual(['400px', '400px', '400px']);

    // The first card comes within 400 px: its picture replaces its skeleton; the others wait.
    const first = watching.find((o) => o.targets.includes(cards[0]!))!;
    await act(async () =>
      first.callback(
        [{ isIntersecting: true, target: cards[0]! } as unknown as IntersectionObserverEntry],
        {} as IntersectionObserver,
      ),
    );
    await waitFor(() => expect(cards[0]!.querySelector('img')).not.toBeNull());
    expect(cards[0]!.querySelector('.MuiSkeleton-root')).toBeNull();
    expect(cards[1]!.querySelector('img')).toBeNull();
    // Once loaded it stays: its observer is let go.
    expect(first.targets).toEqual([]);
  });
});
