import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConvertSet } from '@vitrine/contract/session';
import { addedLanguageHandler, api, configHandlers, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { toast } from '../../lib/toast.ts';
import { expectPortalTooltip } from '../../test/tooltip.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
vi.setConfig({ testTimeout: 15_000 });
afterEach(() => {
  server.resetHandlers();
  toast.clear();
});
afterAll(() => server.close());

const doc = {
  id: '42',
  url: '/media/thumb/42?exp=1&sig=x',
  asset_groups: ['image'],
  title: 'Harbour <b>at night</b>',
  filename: 'harbour.jpg',
  file_size: 1_234_567,
  creator: '',
  pixel_x: 4000,
  pixel_y: 3000,
};

/** The asset and its preview, conversion sets as given, and a record of download calls. */
function asset(sets: ConvertSet[], config: Record<string, unknown> = {}) {
  const calls: string[] = [];
  server.use(
    ...configHandlers(config),
    http.get(api('assets'), ({ request }) =>
      HttpResponse.json({
        response: { docs: new URL(request.url).searchParams.get('assetid') === '42' ? [doc] : [] },
      }),
    ),
    http.get(api('index/fields'), () =>
      HttpResponse.json({
        visible_fields: [
          {
            field_name: 'file_size',
            default_labels: { en: 'File size', de: 'Dateigröße' },
            is_facet: true,
            range_facet: true,
            multi_valued: false,
            origin: 'column',
            type: 'int',
            options: { filterVal: 'filesize' },
          },
        ],
      }),
    ),
    http.get(api('download/preview'), () =>
      HttpResponse.json({ url: '/media/preview/42?exp=1&sig=x', asset_groups: ['image'] }),
    ),
    http.get(api('session/csets'), () => HttpResponse.json({ convert_sets: sets })),
    http.get(api('download/'), ({ request }) => {
      calls.push(new URL(request.url).search);
      return HttpResponse.json({ error: 'rate_limit_reached', message: 'one at a time' }, { status: 429 });
    }),
    http.post(api('download/order'), async ({ request }) => {
      calls.push(JSON.stringify(await request.json()));
      return HttpResponse.json({ ok: true });
    }),
  );
  return calls;
}

const downloadButton = async () =>
  within(await screen.findByRole('toolbar', { name: 'Asset actions' }, { timeout: 10_000 })).getByRole('button', {
    name: 'Download',
  });

describe('asset detail (portal-spec §2 "Asset detail")', () => {
  it('shows the title and metadata as text, formatted, with empty fields hidden', async () => {
    asset([]);
    await renderApp('/asset/42');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Harbour <b>at night</b>' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    // Drawn in the render after the page's (AssetMetadata).
    const metadata = await screen.findByRole('region', { name: 'Metadata' });
    expect(await within(metadata).findByText('1.23 MB')).toBeInTheDocument();
    expect(within(metadata).getByText('File size')).toBeInTheDocument();
    expect(within(metadata).getByText('4000 × 3000 px')).toBeInTheDocument();
    expect(within(metadata).getByText('harbour.jpg')).toBeInTheDocument();
    // hide_empty_metadata_fields is on by default: the empty creator is not listed.
    expect(within(metadata).queryByText('creator')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Harbour <b>at night</b>' })).toHaveAttribute(
      'src',
      '/media/preview/42?exp=1&sig=x',
    );
  });

  it('labels the metadata in a language an admin added by its translation set (metadata.<field>), not in English (admin-spec "Translation set")', async () => {
    asset([]);
    server.use(addedLanguageHandler('fr', { metadata: { file_size: 'Taille du fichier' } }));
    await renderApp('/asset/42', { locale: 'fr', remoteTexts: true });
    const metadata = await screen.findByRole('region', { name: 'Metadata' }, { timeout: 10_000 });
    expect(await within(metadata).findByText('Taille du fichier')).toBeInTheDocument();
    expect(within(metadata).queryByText('File size')).not.toBeInTheDocument();
  });

  /** The page's first paint of this page, as the page's script shows it (src/first-paint). */
  const firstPaintOf = (page: string) => {
    const shown = document.body.appendChild(document.createElement('div'));
    shown.id = 'vt-first-paint';
    shown.dataset.page = page;
    return () => document.getElementById('vt-first-paint');
  };

  it("takes the place of the page's first paint once its media is drawn, not before (decision 0244)", async () => {
    asset([]);
    let answerPreview: () => void = () => undefined;
    const previewAsked = new Promise<void>((resolve) => {
      server.use(
        http.get(api('download/preview'), async () => {
          resolve();
          await new Promise<void>((answered) => (answerPreview = answered));
          return HttpResponse.json({ url: '/media/preview/42?exp=1&sig=x', asset_groups: ['image'] });
        }),
      );
    });
    const firstPaint = firstPaintOf('asset');
    await renderApp('/asset/42');
    await previewAsked;
    // The title is drawn, the preview not yet: the first paint, which shows it, stands.
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour <b>at night</b>' })).toBeInTheDocument();
    expect(firstPaint()).not.toBeNull();
    answerPreview();
    expect(await screen.findByRole('img', { name: 'Harbour <b>at night</b>' })).toBeInTheDocument();
    expect(firstPaint()).toBeNull();
  });

  /** The views the page counts for the statistics (POST insights/view). */
  const countedViews = () => {
    const views: unknown[] = [];
    server.use(
      http.post(api('insights/view'), async ({ request }) => {
        views.push(await request.json());
        return HttpResponse.json({ ok: true });
      }),
    );
    return views;
  };

  it('counts one view of the page for the statistics once it shows the asset (issue #51)', async () => {
    asset([]);
    const views = countedViews();
    await renderApp('/asset/42');
    await screen.findByRole('heading', { level: 1, name: 'Harbour <b>at night</b>' }, { timeout: 10_000 });
    await waitFor(() => expect(views).toEqual([{ id: '42' }]));
  });

  it("gives the page's first paint up when there is no asset to show", async () => {
    asset([]);
    const views = countedViews();
    const firstPaint = firstPaintOf('asset');
    await renderApp('/asset/7');
    expect(await screen.findByText('This asset is not available to you.')).toBeInTheDocument();
    expect(firstPaint()).toBeNull();
    // No view of an asset the page does not show.
    expect(views).toEqual([]);
  });
});

describe('download flow (portal-spec §4 "Download flow", §8 "Download")', () => {
  it('offers several sets in the dialog; with terms of use, downloading waits for their acceptance', async () => {
    asset(
      [
        { id: 0, title: 'Original file' },
        { id: 1, title: 'Web JPEG' },
      ],
      { terms_of_use: { show: true, links: { en: 'https://example.org/terms' } } },
    );
    const { user } = await renderApp('/asset/42');
    await user.click(await downloadButton());
    const dialog = await screen.findByRole('dialog', { name: 'Download options' });
    expect(within(dialog).getByRole('radio', { name: 'Original file' })).toBeChecked();
    const submit = within(dialog).getByRole('button', { name: 'Download' });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I accept the terms of use' }));
    expect(submit).toBeEnabled();
    expect(within(dialog).getByRole('link', { name: 'Read the terms of use' })).toHaveAttribute(
      'href',
      'https://example.org/terms',
    );
  });

  it('downloads at once with exactly one set, and says so when the server allows one conversion at a time', async () => {
    const calls = asset([{ id: 1, title: 'Web JPEG' }]);
    const { user } = await renderApp('/asset/42');
    await user.click(await downloadButton());
    expect(await screen.findByText('Only one conversion download at a time is possible.')).toBeInTheDocument();
    expect(calls).toEqual(['?id=42&csetid=1&target=down']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'Download', 'No downloads available'],
    ['de', 'Herunterladen', 'Keine Downloads verfügbar'],
  ])(
    'without any set and with the order process off, says before any click that no downloads are available (%s)',
    async (locale, download, none) => {
      asset([]);
      await renderApp('/asset/42', { locale });
      const toolbar = await screen.findByRole('toolbar', { name: /./ }, { timeout: 10_000 });
      const button = await within(toolbar).findByRole('button', { name: download, description: none });
      expect(button).toBeDisabled();
      expect(within(toolbar).getByText(none)).toBeVisible();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    },
  );

  it.each([
    ['en', 'No preview available', 'No downloads available'],
    ['de', 'Keine Vorschau verfügbar', 'Keine Downloads verfügbar'],
  ])(
    '§8 "Download" unauthorized: a preview the visitor may not see warns that no downloads are available, not only that there is no preview (%s)',
    async (locale, noPreview, none) => {
      // The order process is on, so the toolbar says nothing itself: the warning is the preview's.
      asset([], { global: { run_order_process: true } });
      server.use(http.get(api('download/preview'), () => HttpResponse.json({ asset_groups: ['image'] })));
      await renderApp('/asset/42', { locale });
      expect(await screen.findByRole('img', { name: noPreview }, { timeout: 10_000 })).toBeInTheDocument();
      const warning = await screen.findByRole('alert');
      expect(warning).toHaveTextContent(none);
      expect(warning).toHaveClass('MuiAlert-colorWarning');
    },
  );

  it('without any set and with the order process on, opens the order dialog and sends the order with its message', async () => {
    const calls = asset([], { global: { run_order_process: true } });
    const { user } = await renderApp('/asset/42');
    await user.click(await downloadButton());
    const dialog = await screen.findByRole('dialog', { name: 'Download not available' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'For print');
    await user.click(within(dialog).getByRole('button', { name: 'Submit order' }));
    expect(await screen.findByText('Your order has been sent.')).toBeInTheDocument();
    expect(calls).toEqual([JSON.stringify({ id: ['42'], message: 'For print' })]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('tooltips of the asset page (portal-spec §9 "Tooltip on icon buttons")', () => {
  it.each([
    ['en', 'Download', 'Copy share link', 'Previous page', 'Next page'],
    ['de', 'Herunterladen', 'Link zum Teilen kopieren', 'Vorherige Seite', 'Nächste Seite'],
  ])(
    'the Download and Share buttons and the page buttons of a PDF show the portal tooltip (%s)',
    async (locale, download, share, previous, next) => {
      asset([{ id: 1, title: 'Web JPEG' }]);
      server.use(
        http.get(api('assets'), () =>
          HttpResponse.json({ response: { docs: [{ ...doc, asset_groups: ['document'] }] } }),
        ),
        http.get(api('download/preview'), ({ request }) =>
          HttpResponse.json({
            url: `/media/preview/42?page=${new URL(request.url).searchParams.get('page')}`,
            asset_groups: ['document'],
            page_count: 3,
          }),
        ),
      );
      const { user } = await renderApp('/asset/42', { locale });
      const toolbar = await screen.findByRole('toolbar', { name: /./ }, { timeout: 10_000 });
      await expectPortalTooltip(user, await within(toolbar).findByRole('button', { name: download }), download);
      await expectPortalTooltip(user, within(toolbar).getByRole('button', { name: share }), share);
      const nextPage = await screen.findByRole('button', { name: next });
      await expectPortalTooltip(user, nextPage, next);
      await user.click(nextPage);
      await user.unhover(nextPage);
      await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
      await expectPortalTooltip(user, screen.getByRole('button', { name: previous }), previous);
      // On the last page the button under the pointer turns disabled: its tooltip goes with it.
      await user.click(nextPage);
      expect(nextPage).toBeDisabled();
      await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    },
  );
});

describe('shared links (portal-spec §4 "Shared links")', () => {
  it('asks a guest to log in first when the shared asset is not visible', async () => {
    asset([]);
    server.use(...sessionHandlers(sessionAnswer({ user: null })));
    const { router } = await renderApp('/asset/7');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 });
    expect(await screen.findByText('None of the shared assets are visible to you.')).toBeInTheDocument();
  });

  it('shows the asset after the login: what was fetched for the guest is not used for the user', async () => {
    asset([]);
    server.use(
      // The guest's token sees nothing; the logged-in user's token sees asset 42.
      http.post(api('session/get'), async ({ request }) => {
        const body = (await request.json().catch(() => ({}))) as { user?: string };
        return HttpResponse.json(
          body.user ? sessionAnswer({ user: 'ada', session: 'token-of-ada' }) : sessionAnswer({ user: null }),
        );
      }),
      http.get(api('assets'), ({ request }) =>
        HttpResponse.json({
          response: { docs: request.headers.get('Authorization')?.includes('token-of-ada') ? [doc] : [] },
        }),
      ),
    );
    const { router, user } = await renderApp('/asset/42');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 });
    // The router's state leads; the screen is drawn in a deferred render after it.
    await user.type(await screen.findByLabelText(/^Username/), 'ada');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/asset/42'), { timeout: 10_000 });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Harbour <b>at night</b>' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
