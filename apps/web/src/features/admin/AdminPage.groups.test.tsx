import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { GroupEntry, GroupList, GroupVersion } from '@vitrine/contract/groups';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

const groupEntry = (name: string, over: Partial<GroupEntry> = {}): GroupEntry => ({
  name,
  portalAccess: true,
  guiAdmin: false,
  downloadSets: [0],
  shareLinks: false,
  editors: false,
  fields: [],
  accounts: 0,
  assets: 0,
  conversionSets: [],
  settings: [],
  ...over,
});

const list = (over: Partial<GroupList> = {}): GroupList => ({
  source: 'admin',
  version: 4,
  groups: [
    groupEntry('admins', { guiAdmin: true, accounts: 1 }),
    groupEntry('staff', {
      accounts: 2,
      assets: 7,
      downloadSets: [0, 2],
      shareLinks: true,
      fields: ['salary'],
      conversionSets: [2],
      settings: ['guest.groups'],
    }),
  ],
  audienceFields: ['salary', 'contract'],
  conversionSets: [
    { id: 0, title: 'Original' },
    { id: 2, title: 'Web JPEG' },
  ],
  ...over,
});

const versions: GroupVersion[] = [
  { id: 4, saved_by: 'ada', saved_at: '2026-12-06T10:00:00Z', restored_from: null, groups: ['admins', 'staff'] },
  { id: 3, saved_by: 'grace', saved_at: '2026-12-05T10:00:00Z', restored_from: null, groups: ['admins'] },
];

/** The Groups calls; returns what was asked to change. */
function groupsServer(answer: GroupList = list(), refuse?: () => Response) {
  adminServer(defaultGlobalConfig);
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const record = async (request: Request) => {
    const text = await request.text();
    calls.push({
      method: request.method,
      path: new URL(request.url).pathname.replace(/^.*\/admin\//, ''),
      ...(text ? { body: JSON.parse(text) as unknown } : {}),
    });
    return refuse ? refuse() : HttpResponse.json(answer);
  };
  server.use(
    http.get(api('admin/groups'), () => HttpResponse.json(answer)),
    http.get(api('admin/groups/history'), () => HttpResponse.json({ versions })),
    http.post(api('admin/groups'), ({ request }) => record(request)),
    http.post(api('admin/groups/rollback/:id'), ({ request }) => record(request)),
    http.post(api('admin/groups/:name'), ({ request }) => record(request)),
    http.delete(api('admin/groups/:name'), ({ request }) => record(request)),
  );
  return calls;
}

async function openGroups(locale?: string) {
  const rendered = await renderApp('/admin/groups', locale ? { locale } : {});
  await screen.findByRole('heading', { level: 2 }, slow);
  return rendered;
}

const table = (name = 'Groups') => screen.findByRole('table', { name }, slow);

describe('admin Groups section (issue #50)', { timeout: 60_000 }, () => {
  it('lists the groups with their rights, download sets by title, and what names each', async () => {
    groupsServer();
    await openGroups();
    const rows = within(await table()).getAllByRole('row');
    expect(rows[2]).toHaveTextContent('staff');
    expect(rows[2]).toHaveTextContent('Original, Web JPEG');
    expect(rows[2]).toHaveTextContent('salary');
    expect(rows[2]).toHaveTextContent('2 accounts; 7 assets; conversion sets Web JPEG; settings file: guest.groups');
    expect(rows[1]).toHaveTextContent('1 account; 0 assets');
    expect(screen.getByText('The groups saved in the admin area are in force.')).toBeInTheDocument();
  });

  it('says when the settings file decides', async () => {
    groupsServer(list({ source: 'settings', version: null }));
    await openGroups();
    expect(await screen.findByText(/The groups of the settings file are in force/, {}, slow)).toBeInTheDocument();
  });

  it('creates a group with the rights chosen', async () => {
    const calls = groupsServer();
    const { user } = await openGroups();
    await table();
    const opener = screen.getByRole('button', { name: 'New group' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'New group' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveFocus());
    await user.type(name, 'press');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Share links' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Downloads' }));
    await user.click(await screen.findByRole('option', { name: 'Web JPEG' }));
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      method: 'POST',
      path: 'groups',
      body: {
        name: 'press',
        portalAccess: true,
        guiAdmin: false,
        downloadSets: [0, 2],
        shareLinks: true,
        editors: false,
        fields: [],
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('sends only the rights changed', async () => {
    const calls = groupsServer();
    const { user } = await openGroups();
    await table();
    await user.click(screen.getByRole('button', { name: 'Edit staff' }));
    const dialog = await screen.findByRole('dialog', { name: 'Group staff' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Editors' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toEqual([{ method: 'POST', path: 'groups/staff', body: { editors: true } }]));
  });

  it("shows the server's message when it refuses to remove a group", async () => {
    const refusal = 'The group staff cannot be removed while it is named by 2 accounts, 7 assets.';
    const calls = groupsServer(list(), () =>
      HttpResponse.json({ error: 'conflict', message: refusal }, { status: 409 }),
    );
    const { user } = await openGroups();
    await table();
    await user.click(screen.getByRole('button', { name: 'Remove staff' }));
    const question = await screen.findByRole('dialog', { name: 'Remove the group staff?' });
    await user.click(within(question).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(refusal, {}, slow)).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'DELETE', path: 'groups/staff' }]);
  });

  it('restores an earlier version from the history', async () => {
    const calls = groupsServer();
    const { user } = await openGroups();
    const history = await screen.findByRole('list', { name: 'Saved versions' }, slow);
    const restore = await within(history).findByRole('button', { name: /Restore/ });
    await user.click(restore);
    await waitFor(() => expect(calls).toEqual([{ method: 'POST', path: 'groups/rollback/3' }]));
  });

  it('speaks German, the refusal in the server’s words', async () => {
    const refusal = 'Die Gruppe staff wird noch von 2 Konten genannt.';
    groupsServer(list(), () => HttpResponse.json({ error: 'conflict', message: refusal }, { status: 409 }));
    const { user } = await openGroups('de');
    const rows = within(await table('Gruppen')).getAllByRole('row');
    expect(rows[2]).toHaveTextContent('2 Konten; 7 Assets');
    await user.click(screen.getByRole('button', { name: 'staff entfernen' }));
    const question = await screen.findByRole('dialog', { name: 'Die Gruppe staff entfernen?' });
    await user.click(within(question).getByRole('button', { name: 'Bestätigen' }));
    expect(await screen.findByText(refusal, {}, slow)).toBeInTheDocument();
  });
});
