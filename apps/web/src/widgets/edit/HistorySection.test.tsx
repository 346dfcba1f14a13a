import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { api, configHandlers, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { editHandlers, type EditCalls } from '../../test/editServer.ts';

startTestServer(server, 'bypass');
vi.setConfig({ testTimeout: 60_000 });

/** The asset page of asset 42 for anna, an editor unless told otherwise. */
async function openAsset({ isEditor = true, locale = 'en' } = {}) {
  const calls: EditCalls = {};
  server.use(
    ...sessionHandlers(sessionAnswer({ user: 'anna', session: 'anna-token', isEditor })),
    ...configHandlers(),
    ...editHandlers(calls),
    http.get(api('assets'), () =>
      HttpResponse.json({
        response: { docs: [{ id: '42', asset_groups: ['image'], title: 'Harbour at night', filename: 'harbour.jpg' }] },
      }),
    ),
    http.get(api('download/preview'), () =>
      HttpResponse.json({ url: '/media/preview/42?exp=1&sig=x', asset_groups: ['image'] }),
    ),
    http.get(api('session/csets'), () => HttpResponse.json({ convert_sets: [] })),
  );
  const app = await renderApp('/asset/42', { locale });
  await screen.findByRole('heading', { level: 1, name: 'Harbour at night' }, { timeout: 15_000 });
  return { calls, ...app };
}

describe('history and the bin on the asset page (issue #49 "History and undo")', () => {
  it('lists the changes with who, when, before and after, and undoes one', async () => {
    const { calls, user } = await openAsset();
    const history = await screen.findByRole('region', { name: 'History' }, { timeout: 15_000 });
    const [latest, older] = await within(history).findAllByRole('listitem');
    expect(latest).toHaveTextContent(/^Edit by anna, /);
    expect(latest).toHaveTextContent('TitleEN: Harbour → EN: Harbour at night');
    // An entry undone already says so and offers no Undo.
    expect(older).toHaveTextContent(/^Edit by ben, .*undone/);
    expect(within(older!).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();

    await user.click(within(latest!).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('1 asset set back')).toBeInTheDocument();
    expect(calls['edit/undo']).toEqual([{ batch: 7 }]);
    expect(calls['edit/history']).toEqual(['?id=42', '?id=42']);
  });

  it('moves the asset to the bin after asking, and the notice brings it back', async () => {
    const { calls, user, router } = await openAsset();
    const actions = screen.getByRole('toolbar', { name: 'Asset actions' });
    await user.click(await within(actions).findByRole('button', { name: 'Move to bin' }));
    const question = await screen.findByRole('dialog', { name: 'Move 1 asset to the bin?' });
    await user.click(within(question).getByRole('button', { name: 'Confirm' }));
    const notice = (await screen.findByText('1 asset moved to the bin')).closest<HTMLElement>('[role="status"]');
    expect(calls['edit/bin']).toEqual([{ ids: ['42'] }]);
    // The asset is gone from the portal: its page goes back.
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/asset/42'));

    await user.click(within(notice!).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('1 asset restored')).toBeInTheDocument();
    expect(calls['edit/restore']).toEqual([{ ids: ['42'] }]);
  });

  it('shows a user who is no editor neither edit controls nor the history, and asks for neither', async () => {
    const { calls } = await openAsset({ isEditor: false });
    // Were the controls shown, their code would be here now.
    await act(() => Promise.all([import('./EditTools.tsx'), import('./HistorySection.tsx')]));
    const actions = screen.getByRole('toolbar', { name: 'Asset actions' });
    expect(within(actions).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(within(actions).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(actions).queryByRole('button', { name: 'Move to bin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'History' })).not.toBeInTheDocument();
    expect(Object.keys(calls).filter((path) => path.startsWith('edit/'))).toEqual([]);
  });

  it('speaks German in the history', async () => {
    await openAsset({ locale: 'de' });
    const history = await screen.findByRole('region', { name: 'Verlauf' }, { timeout: 15_000 });
    const [latest, older] = await within(history).findAllByRole('listitem');
    expect(latest).toHaveTextContent(/^Bearbeitet von anna, /);
    expect(within(latest!).getByRole('button', { name: 'Rückgängig' })).toBeInTheDocument();
    expect(older).toHaveTextContent('rückgängig gemacht');
  });
});
