import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultTranslations } from '@vitrine/contract/translations';
import { ToastHost } from '../components/ToastHost.tsx';
import { api, createSessionServer } from '../test/sessionServer.ts';
import { closeDownloadDialog, downloadState, runDownload, startDownload, zipParts } from './downloadFlow.ts';
import { toast } from '../lib/toast.ts';
import { TranslationProvider, Translator } from '../lib/translate.tsx';

const server = createSessionServer();
const media = `${window.location.origin}/media/download/7/3`;
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // jsdom has no object URLs; the browser hands the blob to the user through one.
  URL.createObjectURL = () => 'blob:saved';
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  server.resetHandlers();
  act(() => toast.clear());
});
afterAll(() => server.close());

const BUSY_TEXT = 'The media server is busy. Please try again later.';

function renderToasts(language: 'en' | 'de' = 'en') {
  const messages = { en: defaultTranslations.en, de: defaultTranslations.de };
  const i18n = new Translator({ language, fallbackLanguage: 'en', messages });
  render(
    <TranslationProvider i18n={i18n}>
      <ToastHost />
    </TranslationProvider>,
  );
}

/** download/ answers busy `busyTimes` times with Retry-After: 1, then the signed URL. */
function mediaServer(busyTimes: number): { asked: () => number; fetched: () => number } {
  let asked = 0;
  let fetched = 0;
  server.use(
    http.get(api('download/'), () => {
      asked++;
      if (asked <= busyTimes) {
        return HttpResponse.json(
          { error: 'busy', message: 'The server is busy with other conversions; please try again in 1 seconds.' },
          { status: 429, headers: { 'Retry-After': '1' } },
        );
      }
      return HttpResponse.json({ url: media });
    }),
    http.get(media, () => {
      fetched++;
      return new HttpResponse('converted', { headers: { 'Content-Type': 'video/mp4' } });
    }),
  );
  return { asked: () => asked, fetched: () => fetched };
}

describe('a busy media server (portal-spec §8 "Download": backend_rate_limit_reached)', () => {
  it('shows the try-later notice as a polite status and asks again after Retry-After', async () => {
    renderToasts();
    const calls = mediaServer(1);
    const done = runDownload(['7'], 3, { orderProcess: false, termsShown: false });
    expect(await screen.findByRole('status')).toHaveTextContent(BUSY_TEXT);
    expect(screen.queryByRole('alert', { name: BUSY_TEXT })).toBeNull();
    await act(() => done);
    expect(calls.asked()).toBe(2);
    expect(calls.fetched()).toBe(1);
    await waitFor(() => expect(screen.queryByText(BUSY_TEXT)).toBeNull());
  });

  it('gives up after three more tries and leaves the notice', async () => {
    renderToasts();
    const calls = mediaServer(10);
    await act(() => runDownload(['7'], 3, { orderProcess: false, termsShown: false }));
    expect(calls.asked()).toBe(4);
    expect(calls.fetched()).toBe(0);
    expect(await screen.findByText(BUSY_TEXT)).toBeInTheDocument();
  }, 15_000);
});

describe('a download that fails (portal-spec §8 "Download": failed, failed_backend)', () => {
  it('says the download failed, with the reason, when the conversion cannot be made', async () => {
    renderToasts();
    server.use(
      http.get(api('download/'), () =>
        HttpResponse.json(
          { error: 'unsupported_media_type', message: 'clip.mov could not be converted to mp4.' },
          { status: 415 },
        ),
      ),
    );
    await act(() => runDownload(['7'], 3, { orderProcess: false, termsShown: false }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The download failed.');
    expect(alert).toHaveTextContent('clip.mov could not be converted to mp4.');
  });

  it("says why a guest's conversion of long media is refused, not that the guest may not download", async () => {
    renderToasts();
    const message =
      'talk.mp4 is longer than 10 minutes: only signed-in users can have video or audio this long converted.';
    server.use(http.get(api('download/'), () => HttpResponse.json({ error: 'too_long', message }, { status: 403 })));
    await act(() => runDownload(['7'], 3, { orderProcess: false, termsShown: false }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The download failed.');
    expect(alert).toHaveTextContent(message);
  });

  it('says the media server refused it when the signed file is refused where it is served', async () => {
    renderToasts();
    server.use(
      http.get(api('download/'), () => HttpResponse.json({ url: media })),
      http.get(media, () => HttpResponse.json({ error: 'forbidden', message: 'revoked' }, { status: 403 })),
    );
    await act(() => runDownload(['7'], 3, { orderProcess: false, termsShown: false }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The download was refused by the media server.');
  });

  it('says no downloads are available when the download call itself is refused', async () => {
    renderToasts();
    server.use(
      http.get(api('download/'), () => HttpResponse.json({ error: 'forbidden', message: 'no' }, { status: 403 })),
    );
    await act(() => runDownload(['7'], 3, { orderProcess: false, termsShown: false }));
    expect(await screen.findByText('No downloads available')).toBeInTheDocument();
  });
});

describe('downloading more than maxAssets (portal-spec §2 confirmations: "downloading {0} assets")', () => {
  it('splits the assets into zips of at most maxAssets, unless it is -1 or not known', () => {
    const ids = ['1', '2', '3', '4', '5'];
    expect(zipParts(ids, 2)).toEqual([['1', '2'], ['3', '4'], ['5']]);
    expect(zipParts(ids, 5)).toEqual([ids]);
    expect(zipParts(ids, -1)).toEqual([ids]);
    expect(zipParts(ids, undefined)).toEqual([ids]);
  });

  it('asks first, and after a yes downloads as many zips as it takes, each list sent in a body (download/zip), each zip with its own name', async () => {
    const asked: string[][] = [];
    const saved: string[] = [];
    server.use(
      http.get(api('session/csets'), () => HttpResponse.json({ convert_sets: [{ id: 0, title: 'Original' }] })),
      http.post(api('download/zip'), async ({ request }) => {
        const { csetid, ids } = (await request.json()) as { csetid: number; ids: string[] };
        expect(csetid).toBe(0);
        asked.push(ids);
        return HttpResponse.json({
          url: `${window.location.origin}/media/zip/0/${'r'.repeat(43)}?exp=1&sig=s`,
          rejected_asset_ids: [],
        });
      }),
      http.get(
        `${window.location.origin}/media/zip/0/${'r'.repeat(43)}`,
        () => new HttpResponse('zip', { headers: { 'Content-Type': 'application/zip' } }),
      ),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    try {
      const options = { orderProcess: false, termsShown: false, maxAssets: 2 };
      await act(() => startDownload(['1', '2', '3', '4', '5'], options));
      expect(asked).toEqual([]);
      expect(downloadState()).toMatchObject({ dialog: { kind: 'confirm', ids: ['1', '2', '3', '4', '5'] } });
      await act(() => startDownload(['1', '2', '3', '4', '5'], options, true));
      expect(asked).toEqual([['1', '2'], ['3', '4'], ['5']]);
      expect(saved).toEqual(['assets-1-of-3.zip', 'assets-2-of-3.zip', 'assets-3-of-3.zip']);
      // Two assets are within the limit: no question, one zip.
      await act(() => startDownload(['1', '2'], options));
      expect(asked.at(-1)).toEqual(['1', '2']);
      expect(saved.at(-1)).toBe('assets.zip');
    } finally {
      click.mockRestore();
      closeDownloadDialog();
    }
  });
});

describe('notices of a download (portal-spec §8 "Download": starts_soon, wait, the generic error)', () => {
  const options = { orderProcess: false, termsShown: false };

  it.each([
    ['en', 'Your download starts soon.', 'Please wait until the running download has finished.', 'Close'],
    ['de', 'Ihr Download startet in Kürze.', 'Bitte warten Sie, bis der laufende Download beendet ist.', 'Schließen'],
  ] as const)(
    'says the download starts soon, and refuses a second one while it runs with the wait notice (%s)',
    async (language, soon, wait, close) => {
      renderToasts(language);
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const asked: string[] = [];
      server.use(
        http.get(api('download/'), async ({ request }) => {
          asked.push(new URL(request.url).searchParams.get('id') ?? '');
          await answered;
          return HttpResponse.json({ url: media });
        }),
        http.get(media, () => new HttpResponse('converted', { headers: { 'Content-Type': 'image/jpeg' } })),
      );
      const first = runDownload(['7'], 3, options);
      try {
        const notice = await screen.findByRole('alert');
        expect(notice).toHaveTextContent(soon);
        // Refused before anything is asked: neither the sets nor the file of asset 8.
        await act(() => startDownload(['8'], options));
        await act(() => runDownload(['8'], 3, options));
        await userEvent.setup().click(within(notice).getByRole('button', { name: close }));
        expect(await screen.findByRole('alert')).toHaveTextContent(wait);
      } finally {
        // A failed check leaves no download running into the next test.
        answer();
        await act(() => first);
      }
      expect(asked).toEqual(['7']);
      expect(downloadState().status).toBe('ready');
    },
  );

  it.each([
    ['en', 'An error occurred.', 'Your download starts soon.'],
    ['de', 'Ein Fehler ist aufgetreten.', 'Ihr Download startet in Kürze.'],
  ] as const)(
    'a single download or a zip that fails otherwise shows the generic error (%s)',
    async (language, error, soon) => {
      renderToasts(language);
      // The connection breaks: no answer and no error id.
      server.use(http.get(api('download/'), () => HttpResponse.error()));
      await act(() => runDownload(['7'], 3, options));
      const single = await screen.findByRole('alert');
      expect(single).toHaveTextContent(error);
      // The reason takes the place of "starts soon" at once.
      expect(screen.queryByText(soon)).toBeNull();
      act(() => toast.clear());
      server.use(
        http.post(api('download/zip'), () =>
          HttpResponse.json({ error: 'internal', message: 'disk full' }, { status: 500 }),
        ),
      );
      await act(() => runDownload(['7', '8'], 3, options));
      expect(await screen.findByRole('alert')).toHaveTextContent(error);
      expect(screen.queryByText('disk full')).toBeNull();
    },
  );
});
