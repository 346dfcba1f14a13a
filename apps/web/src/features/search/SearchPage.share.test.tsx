import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AssetDoc } from '@vitrine/contract/search';
import type { CreateShareBody } from '@vitrine/contract/share';
import { api, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { layOutResults } from '../../test/resultsLayout.ts';
import { indexField } from '../../test/indexField.ts';
import { shareKeys } from '../../stores/shares.ts';

layOutResults();
startTestServer(server, 'bypass');

/** Ten assets are found; the first page brings four, and further pages are held back. */
const TOTAL = 10;
const firstPage: AssetDoc[] = ['1', '2', '3', '4'].map((id) => ({ id, title: `Asset ${id}` }));

function catalogue() {
  server.use(
    http.get(api('index/fields'), () =>
      HttpResponse.json({ visible_fields: [indexField('title', 'Title', { is_facet: false })] }),
    ),
    http.get(api('search'), async ({ request }) => {
      const start = Number(new URL(request.url).searchParams.get('solr_start') ?? '0');
      // The next page stays on its way: only the first page is loaded while the test runs.
      if (start > 0) await new Promise(() => undefined);
      return HttpResponse.json({
        response: { docs: firstPage, numFound: TOTAL, start: 0 },
        facetCounts: { facetFields: {}, facetRanges: {} },
      });
    }),
  );
}

/** A user whose group may create share links (docs/security.md "Share links"); answers the links asked for. */
function governed() {
  const created: CreateShareBody[] = [];
  server.use(
    http.get(api('config/bookmarks'), () => HttpResponse.json([])),
    http.get(api('share/settings'), () =>
      HttpResponse.json({ mayCreate: true, maxAssets: 1000, maxDays: 90, downloadSets: [] }),
    ),
    // After the settings above: the first handler that matches answers.
    ...sessionHandlers(sessionAnswer({ user: 'ada' })),
    http.post(api('share/create'), async ({ request }) => {
      const body = (await request.json()) as CreateShareBody;
      created.push(body);
      return HttpResponse.json({
        share: {
          id: created.length,
          title: '',
          assetIds: body.assetIds,
          createdAt: '2026-12-06T20:00:00.000Z',
          expiresAt: null,
          revokedAt: null,
          hasPassword: false,
          downloadSets: [],
          views: 0,
          downloads: 0,
          state: 'active',
        },
        token: `token-${created.length}`,
      });
    }),
  );
  return created;
}

const result = (id: string) => screen.findByRole('button', { name: `Asset ${id}` }, { timeout: 15_000 });

/** The right to share has arrived (the share action opens the dialog only once it is known). */
const mayShare = (rendered: Awaited<ReturnType<typeof renderApp>>) =>
  waitFor(() => expect(rendered.queryClient.getQueryData(shareKeys.settings('ada'))).toBeDefined(), {
    timeout: 15_000,
  });

/** Selects assets 1 and 3 of the results: a click, then a ctrl click (portal-spec §4 "Selection"). */
async function selectOneAndThree(user: Awaited<ReturnType<typeof renderApp>>['user']) {
  await user.click(await result('1'));
  await user.keyboard('{Control>}');
  await user.click(await result('3'));
  await user.keyboard('{/Control}');
}

describe('portal-spec §2 "Search": share the result or the selection', { timeout: 40_000 }, () => {
  it.each([
    ['en', 'Share selection', 'Links copied to the clipboard'],
    ['de', 'Auswahl teilen', 'Links in die Zwischenablage kopiert'],
  ])(
    'sharing the selection copies a link to exactly the selected assets and says the links are copied (%s, portal-spec §8 "Copy share link")',
    async (locale, share, copiedNotice) => {
      catalogue();
      const { user } = await renderApp('/search/*', { locale });
      await selectOneAndThree(user);
      await user.click(screen.getByRole('button', { name: share }));
      const copied = await navigator.clipboard.readText();
      const shown = new URL(copied.replace('#/', ''));
      expect(shown.searchParams.get('id')?.split(',')).toEqual(['1', '3']);
      expect(await screen.findByRole('alert')).toHaveTextContent(copiedNotice);
    },
  );

  it('sharing the results copies a link to the search itself, not to the assets loaded so far', async () => {
    catalogue();
    const { user } = await renderApp('/search/boat');
    await result('1');
    await user.click(screen.getByRole('button', { name: 'Share found assets' }));
    const copied = await navigator.clipboard.readText();
    expect(copied).toBe(`${window.location.origin}${window.location.pathname}#/search/boat`);
    expect(await screen.findByText('Links copied to the clipboard')).toBeInTheDocument();
  });

  it('a governed share of the selection holds exactly the selected assets', async () => {
    catalogue();
    const created = governed();
    const rendered = await renderApp('/search/*');
    const { user } = rendered;
    await mayShare(rendered);
    await selectOneAndThree(user);
    await user.click(screen.getByRole('button', { name: 'Share selection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a share link' });
    expect(within(dialog).getByText(/see the 2 chosen assets/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.assetIds).toEqual(['1', '3']);
  });

  it('a governed share of "found" takes only the results loaded so far (decision 0114)', async () => {
    catalogue();
    const created = governed();
    const rendered = await renderApp('/search/*');
    const { user } = rendered;
    await mayShare(rendered);
    await result('4');
    expect(screen.getByRole('heading', { name: `${TOTAL} results` })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Share found assets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a share link' });
    expect(within(dialog).getByText(/see the 4 chosen assets/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.assetIds).toEqual(['1', '2', '3', '4']);
    // The link is shown once, to be copied.
    expect(await within(dialog).findByLabelText('Share link')).toHaveValue(
      `${window.location.origin}${window.location.pathname}#/share/token-1`,
    );
  });
});
