import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { DuplicateGroup } from '@vitrine/contract/alike';
import { api, configHandlers, server, sessionAnswer, sessionHandlers } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { editHandlers, editOptions, type EditCalls } from '../../test/editServer.ts';

startTestServer(server, 'bypass');
vi.setConfig({ testTimeout: 60_000 });

const rose = {
  id: '11',
  title: 'Yellow rose',
  filename: 'rose.jpg',
  format: 'jpg',
  width: 1600,
  height: 1200,
  fileSize: 2_400_000,
  created: '2024-06-01T10:00:00.000Z',
  added: '2026-12-01T09:00:00.000Z',
  collections: [{ id: 3, name: 'Garden' }],
  thumbnail: '/media/thumb/11?e=1&s=x',
};
const groups: DuplicateGroup[] = [
  { kind: 'exact', members: [rose, { ...rose, id: '12', title: 'Yellow rose again', collections: [] }] },
  {
    kind: 'near',
    members: [
      rose,
      { id: '13', filename: 'rose.webp', format: 'webp', width: 800, height: 600, fileSize: 90_000, collections: [] },
    ],
  },
];

/** The report for anna: an editor, or not. */
async function openReport({ isEditor = true, locale = 'en', path = '/duplicates' } = {}) {
  const calls: EditCalls = {};
  server.use(
    ...sessionHandlers(sessionAnswer({ user: 'anna', session: 'anna-token', isEditor })),
    ...configHandlers(),
    ...editHandlers(calls, editOptions()),
    http.get(api('alike/duplicates'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      (calls['GET alike/duplicates'] ??= []).push(`?${query.toString()}`);
      // After a move to the bin the server no longer lists the binned asset.
      const binned = new Set((calls['edit/bin'] ?? []).flatMap((b) => (b as { ids: string[] }).ids));
      const left = groups
        .map((g) => ({ ...g, members: g.members.filter((m) => !binned.has(m.id)) }))
        .filter((g) => g.members.length > 1);
      return HttpResponse.json({ total: left.length, groups: left });
    }),
  );
  const app = await renderApp(path, { locale });
  return { calls, ...app };
}

const group = (name: RegExp) => screen.getByRole('region', { name });

describe('the duplicates report (issue #52)', () => {
  it('shows each group side by side with the facts that tell its members apart', async () => {
    const { calls } = await openReport();
    expect(await screen.findByRole('heading', { level: 1, name: 'Duplicates' }, { timeout: 15_000 })).toBeVisible();
    expect(await screen.findByText('2 groups of duplicates')).toBeInTheDocument();
    expect(calls['GET alike/duplicates']).toEqual(['?start=0&rows=20']);
    const exact = group(/^Same file \(2 assets\)$/);
    const members = within(exact).getAllByRole('listitem');
    expect(members).toHaveLength(2);
    const first = members[0]!;
    expect(within(first).getByRole('link', { name: 'Yellow rose' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/asset\/11$/),
    );
    expect(first).toHaveTextContent('rose.jpg');
    expect(first).toHaveTextContent('FormatJPG');
    expect(first).toHaveTextContent('Pixel size1600 × 1200 px');
    expect(first).toHaveTextContent('File size2.4 MB');
    expect(first).toHaveTextContent('CollectionsGarden');
    expect(first).toHaveTextContent(new Date('2024-06-01T10:00:00.000Z').toLocaleDateString('en'));
    expect(first.querySelector('img')).toHaveAttribute('src', '/media/thumb/11?e=1&s=x');
    const near = group(/^Near copies \(2 assets\)$/);
    expect(within(near).getByRole('link', { name: 'rose.webp' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/asset\/13$/),
    );
    expect(within(near).getAllByRole('listitem')[1]).toHaveTextContent('FormatWEBP');
  });

  it('moves one member to the bin, offers to undo it, and asks for the report again', async () => {
    const { calls, user } = await openReport();
    await screen.findByText('2 groups of duplicates', undefined, { timeout: 15_000 });
    await user.click(within(group(/^Same file/)).getByRole('button', { name: 'Move Yellow rose again to the bin' }));
    await waitFor(() => expect(calls['edit/bin']).toEqual([{ ids: ['12'] }]));
    expect(await screen.findByText('1 group of duplicates')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Same file/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Undo' })).toBeInTheDocument();
  });

  it('is reached from the account menu, in German too', async () => {
    const { user, router } = await openReport({ locale: 'de', path: '/' });
    await user.click(await screen.findByRole('button', { name: /anna/ }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'Duplikate' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/duplicates'), { timeout: 15_000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Duplikate' }, { timeout: 15_000 })).toBeVisible();
    expect(await screen.findByText('2 Gruppen von Duplikaten')).toBeInTheDocument();
    const exact = group(/^Dieselbe Datei \(2 Assets\)$/);
    expect(within(exact).getByRole('button', { name: 'Yellow rose in den Papierkorb verschieben' })).toBeVisible();
    expect(within(exact).getAllByRole('listitem')[0]).toHaveTextContent('Pixelgröße1600 × 1200 px');
  });

  it('says so when there are none', async () => {
    await openReport();
    server.use(http.get(api('alike/duplicates'), () => HttpResponse.json({ total: 0, groups: [] })));
    expect(await screen.findByText('No duplicates found.', undefined, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('sends a user who is no editor home, without asking for the report, and lists it in no menu', async () => {
    const { calls, router, user } = await openReport({ isEditor: false });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 15_000 });
    expect(calls['GET alike/duplicates']).toBeUndefined();
    await user.click(await screen.findByRole('button', { name: /anna/ }));
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Duplicates' })).not.toBeInTheDocument();
  });
});
