import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { api, configHandlers, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { editHandlers, editOptions, type EditCalls } from '../../test/editServer.ts';

startTestServer(server, 'bypass');
vi.setConfig({ testTimeout: 60_000 });

/** The bin for anna: an editor, an admin who may remove for good, or neither. */
async function openBin({ isEditor = true, canRemove = false, locale = 'en', path = '/bin' } = {}) {
  const calls: EditCalls = {};
  server.use(
    ...sessionHandlers(sessionAnswer({ user: 'anna', session: 'anna-token', isEditor })),
    ...configHandlers(),
    ...editHandlers(calls, editOptions({ canRemove })),
  );
  const app = await renderApp(path, { locale });
  return { calls, ...app };
}

const row = (name: string) => screen.getByRole('cell', { name: new RegExp(`^${name}`) }).closest('tr')!;

describe('the bin (issue #49)', () => {
  it('lists what is in the bin and restores one asset, then a selection', async () => {
    const { calls, user } = await openBin();
    expect(await screen.findByRole('heading', { level: 1, name: 'Bin' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(await screen.findByText('2 assets in the bin')).toBeInTheDocument();
    expect(row('Old pier')).toHaveTextContent(/by anna, /);
    expect(row('lighthouse.jpg')).toHaveTextContent('by unknown');

    await user.click(screen.getByRole('button', { name: 'Restore Old pier' }));
    expect(await screen.findByText('1 asset restored')).toBeInTheDocument();
    expect(calls['edit/restore']).toEqual([{ ids: ['51'] }]);

    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Restore selected (2)' }));
    await waitFor(() => expect(calls['edit/restore']).toEqual([{ ids: ['51'] }, { ids: ['51', '52'] }]));
    // The restored assets leave the list: the bin is asked again.
    await waitFor(() => expect(calls['GET edit/bin']?.length).toBeGreaterThan(1));
    // An editor who is no admin cannot remove for good.
    expect(screen.queryByRole('button', { name: /Remove for good/ })).not.toBeInTheDocument();
  });

  it('keeps a selection across pages, and selects everything in the bin at once', async () => {
    const { calls, user } = await openBin();
    const binned = Array.from({ length: 120 }, (_, i) => ({
      id: String(1000 + i),
      title: `Binned ${i}`,
      filename: `b${i}.jpg`,
      binnedBy: 'anna',
      binnedAt: '2026-12-02T09:00:00.000Z',
    }));
    server.use(
      http.get(api('edit/bin'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        (calls['GET edit/bin'] ??= []).push(`?${query.toString()}`);
        const start = Number(query.get('start'));
        return HttpResponse.json({ total: 120, assets: binned.slice(start, start + Number(query.get('rows'))) });
      }),
    );
    expect(await screen.findByText('120 assets in the bin', undefined, { timeout: 15_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Binned 0' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByRole('checkbox', { name: 'Select Binned 50' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    // The first page's choice stays.
    expect(screen.getByRole('button', { name: 'Restore selected (51)' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Select all 120 assets in the bin' }));
    expect(await screen.findByRole('button', { name: 'Restore selected (120)' })).toBeEnabled();
    // Everything was read in pages of the most the server answers.
    expect(calls['GET edit/bin']).toEqual(expect.arrayContaining(['?start=0&rows=200']));
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByRole('button', { name: 'Restore selected (70)' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Clear the selection' }));
    expect(screen.getByRole('button', { name: 'Restore selected (0)' })).toBeDisabled();
  });

  it('lets an admin remove the chosen assets for good after a question that counts them', async () => {
    const { calls, user } = await openBin({ canRemove: true });
    await screen.findByText('2 assets in the bin', undefined, { timeout: 15_000 });
    await user.click(screen.getByRole('checkbox', { name: 'Select Old pier' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select lighthouse.jpg' }));
    await user.click(await screen.findByRole('button', { name: 'Remove for good (2)' }));
    const question = await screen.findByRole('dialog', {
      name: 'Remove 2 assets for good? This cannot be undone.',
    });
    await user.click(within(question).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('2 assets removed for good')).toBeInTheDocument();
    expect(calls['edit/remove']).toEqual([{ ids: ['51', '52'] }]);
  });

  it('is reached from the account menu, in German too', async () => {
    const { user, router } = await openBin({ locale: 'de', path: '/' });
    await user.click(await screen.findByRole('button', { name: /anna/ }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'Papierkorb' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bin'), { timeout: 15_000 });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Papierkorb' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('2 Assets im Papierkorb')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Old pier wiederherstellen' })).toBeInTheDocument();
  });

  it('sends a user who is no editor home, without asking for the bin', async () => {
    const { calls, router, user } = await openBin({ isEditor: false });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 15_000 });
    expect(screen.queryByRole('heading', { name: 'Bin' })).not.toBeInTheDocument();
    expect(calls).toEqual({});
    await user.click(await screen.findByRole('button', { name: /anna/ }));
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Bin' })).not.toBeInTheDocument();
  });
});
