import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { AssetDoc } from '@vitrine/contract/search';
import { api, configHandlers, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { layOutResults } from '../../test/resultsLayout.ts';
import { editHandlers, type EditCalls } from '../../test/editServer.ts';

layOutResults();
startTestServer(server, 'bypass');
vi.setConfig({ testTimeout: 60_000 });

const catalogue: AssetDoc[] = [
  { id: '1', title: 'Red car' },
  { id: '2', title: 'Blue boat' },
  { id: '3', title: 'Penguin' },
];

/** The search page for anna, an editor, over a catalogue whose binned assets the search leaves out. */
async function openSearch() {
  const calls: EditCalls = {};
  const binned = new Set<string>();
  let release: () => void = () => undefined;
  const binAnswered = new Promise<void>((resolve) => (release = resolve));
  server.use(
    ...sessionHandlers(sessionAnswer({ user: 'anna', session: 'anna-token', isEditor: true })),
    ...configHandlers(),
    ...editHandlers(calls),
  );
  server.use(
    http.get(api('search'), () => {
      const docs = catalogue.filter((d) => !binned.has(d.id));
      return HttpResponse.json({
        response: { docs, numFound: docs.length, start: 0 },
        facetCounts: { facetFields: {}, facetRanges: {} },
      });
    }),
    // The server takes its time: the results do not wait for it.
    http.post(api('edit/bin'), async ({ request }) => {
      const { ids } = (await request.json()) as { ids: string[] };
      (calls['edit/bin'] ??= []).push({ ids });
      await binAnswered;
      for (const id of ids) binned.add(id);
      return HttpResponse.json({ batch: null, changed: ids.length });
    }),
  );
  const app = await renderApp('/search/*');
  await screen.findByRole('heading', { name: '3 results' }, { timeout: 15_000 });
  return { calls, release, ...app };
}

const result = (title: string) => screen.findByRole('button', { name: title });

describe("the editor's actions on the search page (issue #49)", () => {
  it('moves the selection to the bin: the assets leave the results at once, the notice brings them back', async () => {
    const { calls, release, user } = await openSearch();
    await user.keyboard('{Control>}');
    await user.click(await result('Red car'));
    await user.click(await result('Blue boat'));
    await user.keyboard('{/Control}');
    expect(screen.getByText('2 selected')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Move selection to bin' }));
    const question = await screen.findByRole('dialog', { name: 'Move 2 assets to the bin?' });
    await user.click(within(question).getByRole('button', { name: 'Confirm' }));
    // Gone before the server has answered.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Red car' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Blue boat' })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Penguin' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '1 result' })).toBeInTheDocument();
    expect(calls['edit/bin']).toEqual([{ ids: ['1', '2'] }]);

    release();
    const notice = (await screen.findByText('2 assets moved to the bin')).closest<HTMLElement>('[role="status"]');
    expect(screen.queryByText('2 selected')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move selection to bin' })).not.toBeInTheDocument();

    await user.click(within(notice!).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('2 assets restored')).toBeInTheDocument();
    expect(calls['edit/restore']).toEqual([{ ids: ['1', '2'] }]);
  });

  it("opens the edit dialog from a result's info panel", async () => {
    const { calls, user } = await openSearch();
    await user.click(await result('Penguin'));
    const panel = await screen.findByRole('region', { name: 'Details of Penguin' });
    await user.click(await within(panel).findByRole('button', { name: 'Edit' }));
    expect(await screen.findByRole('dialog', { name: 'Edit harbour.jpg' })).toBeInTheDocument();
    expect(calls['edit/asset']).toEqual(['?id=3']);
  });
});
