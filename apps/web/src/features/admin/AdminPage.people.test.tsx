import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { GroupEntry, GroupList } from '@vitrine/contract/groups';
import type { Person } from '@vitrine/contract/people';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

const DEC_5 = Date.UTC(2026, 11, 5, 9, 30);

export const person = (id: number, over: Partial<Person> = {}): Person => ({
  id,
  name: `user${id}`,
  displayName: null,
  email: `user${id}@example.org`,
  groups: [],
  login: 'native',
  invited: false,
  lastLogin: null,
  created: DEC_5,
  disabled: false,
  blockedUntil: null,
  ...over,
});

export const groupEntry = (name: string, over: Partial<GroupEntry> = {}): GroupEntry => ({
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

export const groupList = (over: Partial<GroupList> = {}): GroupList => ({
  source: 'admin',
  version: 4,
  groups: [groupEntry('admins', { guiAdmin: true, accounts: 1 }), groupEntry('staff', { accounts: 2 })],
  audienceFields: ['salary'],
  conversionSets: [
    { id: 0, title: 'Original' },
    { id: 2, title: 'Web JPEG' },
  ],
  ...over,
});

const ada = person(1, {
  name: 'ada',
  displayName: 'Ada Lovelace',
  email: 'ada@example.org',
  groups: [{ name: 'admins', fromProvider: false }],
  lastLogin: DEC_5,
});
const grace = person(2, {
  name: 'grace',
  email: 'grace@corp.example',
  login: 'oidc:corp',
  groups: [
    { name: 'staff', fromProvider: true },
    { name: 'editors', fromProvider: false },
  ],
  disabled: true,
});

/** Answers the People calls with `rows` on every page, `more` by offset; returns the queries asked. */
export function peopleServer(rows: Person[] = [ada, grace], more: (offset: number) => boolean = () => false) {
  adminServer(defaultGlobalConfig);
  const asked: Record<string, string>[] = [];
  server.use(
    http.get(api('admin/groups'), () => HttpResponse.json(groupList())),
    http.get(api('admin/people'), ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      asked.push(query);
      const offset = Number(query.offset ?? 0);
      return HttpResponse.json({ people: rows, offset, limit: Number(query.limit ?? 50), more: more(offset) });
    }),
  );
  return asked;
}

async function openPeople(locale?: string) {
  const rendered = await renderApp('/admin/people', locale ? { locale } : {});
  await screen.findByRole('heading', { level: 2 }, slow);
  return rendered;
}

const table = (name = 'Accounts') => screen.findByRole('table', { name }, slow);

describe('admin People section (issue #50)', { timeout: 60_000 }, () => {
  it('lists the accounts with their groups, login, last login and status; provider groups show a lock and their provider', async () => {
    const asked = peopleServer();
    await openPeople();
    const rows = within(await table()).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('ada');
    expect(rows[1]).toHaveTextContent('Ada Lovelace');
    expect(rows[1]).toHaveTextContent('Name and password');
    expect(rows[1]).toHaveTextContent('Dec 5, 2026');
    expect(rows[1]).toHaveTextContent('Active');
    expect(rows[2]).toHaveTextContent('corp');
    expect(rows[2]).toHaveTextContent('Disabled');
    expect(rows[2]).toHaveTextContent('Never');
    expect(within(rows[2]!).getByLabelText('staff, from corp')).toBeInTheDocument();
    expect(within(rows[2]!).queryByLabelText('editors, from corp')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('editors')).toBeInTheDocument();
    expect(asked[0]).toEqual({ offset: '0', limit: '50' });
  });

  it('says when an account is blocked and until when, and when it is invited', async () => {
    peopleServer([person(3, { name: 'bob', blockedUntil: Date.now() + 3_600_000 }), person(4, { invited: true })]);
    await openPeople();
    const rows = within(await table()).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/Blocked until \w{3} \d+, \d{4}/);
    expect(rows[2]).toHaveTextContent('Invited');
  });

  it('puts the search text in the request once typing pauses, and the filters chosen', async () => {
    const asked = peopleServer();
    const { user } = await openPeople();
    await table();
    await user.type(screen.getByRole('searchbox', { name: 'Search by name, display name or mail' }), 'lovelace');
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ q: 'lovelace', offset: '0' }));
    // Debounced: no request for a part of the word.
    expect(asked.filter((q) => q.q !== undefined && q.q !== 'lovelace')).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'staff' }));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ q: 'lovelace', group: 'staff' }));

    await user.click(screen.getByRole('combobox', { name: 'Blocked' }));
    await user.click(screen.getByRole('option', { name: 'Yes' }));
    await user.click(screen.getByRole('combobox', { name: 'Disabled' }));
    await user.click(screen.getByRole('option', { name: 'No' }));
    await user.click(screen.getByRole('combobox', { name: 'Login method' }));
    await user.click(screen.getByRole('option', { name: 'Name and password' }));
    await waitFor(() =>
      expect(asked.at(-1)).toEqual({
        q: 'lovelace',
        group: 'staff',
        blocked: 'true',
        disabled: 'false',
        login: 'native',
        offset: '0',
        limit: '50',
      }),
    );
  });

  it('keeps the search text, filters and page in the address, so a reload or a shared link shows the same list', async () => {
    const asked = peopleServer([ada], () => true);
    const { user, router } = await renderApp('/admin/people?q=love&group=staff&disabled=false&page=3');
    await table();
    expect(asked[0]).toEqual({ q: 'love', group: 'staff', disabled: 'false', offset: '100', limit: '50' });
    expect(screen.getByRole('searchbox', { name: 'Search by name, display name or mail' })).toHaveValue('love');
    expect(screen.getByRole('combobox', { name: 'Group' })).toHaveTextContent('staff');
    expect(screen.getByRole('combobox', { name: 'Disabled' })).toHaveTextContent('No');
    expect(screen.getByText('Accounts 101–101')).toBeInTheDocument();
    const address = () => Object.fromEntries(new URLSearchParams(router.state.location.search));

    // A new text starts again at the first page, keeping the filters.
    await user.type(screen.getByRole('searchbox', { name: 'Search by name, display name or mail' }), 'lace');
    await waitFor(() => expect(address()).toEqual({ q: 'lovelace', group: 'staff', disabled: 'false' }));
    expect(asked.at(-1)).toMatchObject({ q: 'lovelace', offset: '0' });

    await user.click(screen.getByRole('combobox', { name: 'Blocked' }));
    await user.click(screen.getByRole('option', { name: 'Yes' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(address()).toEqual({ q: 'lovelace', group: 'staff', blocked: 'true', disabled: 'false', page: '2' }),
    );
    expect(asked.at(-1)).toMatchObject({ q: 'lovelace', blocked: 'true', offset: '50' });
    expect(router.state.location.pathname).toBe('/admin/people');

    // Another address (the section's link in the menu) empties the box as well as the list's filters.
    await router.navigate('/admin/people');
    await waitFor(() =>
      expect(screen.getByRole('searchbox', { name: 'Search by name, display name or mail' })).toHaveValue(''),
    );
    await waitFor(() => expect(asked.at(-1)).toEqual({ offset: '0', limit: '50' }));
  });

  it('pages by 50 while the answer says more follow', async () => {
    const asked = peopleServer([ada], (offset) => offset < 100);
    const { user } = await openPeople();
    await table();
    const previous = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(previous).toBeDisabled();
    await user.click(next);
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ offset: '50' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ offset: '100' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled());
    expect(screen.getByText('Accounts 101–101')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    // The page of offset 50 again (from the cache or asked anew).
    expect(await screen.findByText('Accounts 51–51')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('shows the list in German: texts, dates and provider groups', async () => {
    peopleServer();
    await openPeople('de');
    const rows = within(await table('Konten')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('05.12.2026');
    expect(rows[1]).toHaveTextContent('Name und Passwort');
    expect(rows[2]).toHaveTextContent('Deaktiviert');
    expect(within(rows[2]!).getByLabelText('staff, von corp')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Nach Name, Anzeigename oder Mail suchen' })).toBeInTheDocument();
  });

  describe('Invite', () => {
    /** POST admin/people answers with `reply`; returns the bodies posted. */
    function inviteServer(reply: (body: Record<string, unknown>) => Response) {
      const posted: Record<string, unknown>[] = [];
      server.use(
        http.post(api('admin/people'), async ({ request }) => {
          const body = (await request.json()) as Record<string, unknown>;
          posted.push(body);
          return reply(body);
        }),
      );
      return posted;
    }

    async function openInvite(locale?: string) {
      const { user } = await openPeople(locale);
      await table(locale === 'de' ? 'Konten' : 'Accounts');
      const opener = screen.getByRole('button', { name: locale === 'de' ? 'Einladen' : 'Invite' });
      await user.click(opener);
      const dialog = await screen.findByRole('dialog');
      return { user, dialog, opener };
    }

    it('sends name, mail, display name and groups, says where the invitation went, and closes', async () => {
      peopleServer();
      const posted = inviteServer((body) =>
        HttpResponse.json({ person: person(9, { name: String(body.name), invited: true }), mailSent: true }),
      );
      const { user, dialog, opener } = await openInvite();
      expect(dialog).toHaveAccessibleName('Invite a person');
      const name = within(dialog).getByRole('textbox', { name: 'Name' });
      await waitFor(() => expect(name).toHaveFocus());
      await user.type(name, 'lin');
      await user.type(within(dialog).getByRole('textbox', { name: 'Mail' }), 'lin@example.org');
      await user.type(within(dialog).getByRole('textbox', { name: 'Display name' }), 'Lin Po');
      await user.click(within(dialog).getByRole('combobox', { name: 'Groups' }));
      await user.click(await screen.findByRole('option', { name: 'staff' }));
      await user.keyboard('{Escape}');
      await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]).toEqual({ name: 'lin', email: 'lin@example.org', displayName: 'Lin Po', groups: ['staff'] });
      expect(await screen.findByText('Invitation sent to lin@example.org', {}, slow)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(opener).toHaveFocus());
    });

    it("shows the server's 400 at the field it names and its 409 at the name", async () => {
      peopleServer();
      let reply = () =>
        HttpResponse.json(
          {
            error: 'validation',
            message: 'A user name has 1 to 256 letters, digits or the characters . _ @ -',
            details: [{ path: 'body.name', message: 'has letters, digits or . _ @ - only' }],
          },
          { status: 400 },
        );
      inviteServer(() => reply());
      const { user, dialog } = await openInvite();
      const name = within(dialog).getByRole('textbox', { name: 'Name' });
      await user.type(name, 'a b');
      await user.type(within(dialog).getByRole('textbox', { name: 'Mail' }), 'ab@example.org');
      await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
      expect(
        await within(dialog).findByText('A user name has 1 to 256 letters, digits or the characters . _ @ -'),
      ).toBeInTheDocument();
      expect(name).toHaveAccessibleDescription('A user name has 1 to 256 letters, digits or the characters . _ @ -');
      expect(name).toHaveAttribute('aria-invalid', 'true');

      reply = () =>
        HttpResponse.json(
          {
            error: 'validation',
            message: 'The request is not valid: body.email Invalid email address',
            details: [{ path: 'body.email', message: 'Invalid email address' }],
          },
          { status: 400 },
        );
      await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
      const mail = within(dialog).getByRole('textbox', { name: 'Mail' });
      await waitFor(() => expect(mail).toHaveAccessibleDescription('Invalid email address'));
      expect(name).toHaveAttribute('aria-invalid', 'false');

      reply = () =>
        HttpResponse.json({ error: 'conflict', message: 'The user name a b is taken already.' }, { status: 409 });
      await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
      await waitFor(() => expect(name).toHaveAccessibleDescription('The user name a b is taken already.'));
      expect(screen.getByRole('dialog')).toBeInTheDocument();

      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('speaks German: the dialog, the notice', async () => {
      peopleServer();
      inviteServer((body) => HttpResponse.json({ person: person(9, { name: String(body.name) }), mailSent: true }));
      const { user, dialog } = await openInvite('de');
      expect(dialog).toHaveAccessibleName('Eine Person einladen');
      await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'lin');
      await user.type(within(dialog).getByRole('textbox', { name: 'Mail' }), 'lin@example.org');
      await user.click(within(dialog).getByRole('button', { name: 'Einladung senden' }));
      expect(await screen.findByText('Einladung an lin@example.org gesendet', {}, slow)).toBeInTheDocument();
    });
  });

  describe("A person's dialog", () => {
    /** GET and POST admin/people/:id and DELETE with `belongings`; returns what was posted and deleted. */
    function personServer(
      who: Person,
      belongings = { bookmarks: 3, shareLinks: 1 },
      refuse?: (method: string) => Response,
    ) {
      const posted: Record<string, unknown>[] = [];
      const deleted: Record<string, string>[] = [];
      let current = who;
      server.use(
        http.get(api(`admin/people/${who.id}`), () => HttpResponse.json({ person: current, belongings })),
        http.post(api(`admin/people/${who.id}`), async ({ request }) => {
          const body = (await request.json()) as Record<string, unknown>;
          posted.push(body);
          if (refuse) return refuse('POST');
          current = {
            ...current,
            ...(body.disabled !== undefined ? { disabled: body.disabled as boolean } : {}),
            ...(body.unblock ? { blockedUntil: null } : {}),
          };
          return HttpResponse.json({ person: current, ...(body.sendLink ? { mailSent: true } : {}) });
        }),
        http.delete(api(`admin/people/${who.id}`), ({ request }) => {
          deleted.push(Object.fromEntries(new URL(request.url).searchParams));
          return refuse ? refuse('DELETE') : HttpResponse.json({ removed: belongings });
        }),
      );
      return { posted, deleted };
    }

    async function openPerson(who: Person, locale?: string) {
      peopleServer([who]);
      const { user } = await openPeople(locale);
      const opener = within(await table(locale === 'de' ? 'Konten' : 'Accounts')).getByRole('button', {
        name: who.name,
      });
      await user.click(opener);
      const dialog = await screen.findByRole('dialog', { name: who.name }, slow);
      return { user, dialog, opener };
    }

    it("edits only the groups given by hand: the provider's stay read-only and are not sent", async () => {
      const { posted } = personServer(grace);
      const { user, dialog, opener } = await openPerson(grace);
      const displayName = within(dialog).getByRole('textbox', { name: 'Display name' });
      await waitFor(() => expect(displayName).toHaveFocus());
      expect(within(dialog).getByLabelText('staff, from corp')).toBeInTheDocument();
      const groups = within(dialog).getByRole('combobox', { name: 'Groups (given here)' });
      expect(groups).toHaveTextContent('editors');
      expect(groups).not.toHaveTextContent('staff');
      await user.click(groups);
      await user.click(await screen.findByRole('option', { name: 'admins' }));
      await user.keyboard('{Escape}');
      await user.type(displayName, 'Grace Hopper');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]).toEqual({
        displayName: 'Grace Hopper',
        email: 'grace@corp.example',
        groups: ['editors', 'admins'],
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(opener).toHaveFocus());
    });

    it('offers no reset link to a single sign-on account, and Unblock only while blocked', async () => {
      personServer(grace);
      const { dialog } = await openPerson(grace);
      expect(within(dialog).queryByRole('button', { name: 'Send reset link' })).not.toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: 'Unblock' })).not.toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    });

    it('unblocks a blocked account, sends an invited one its invitation again, and disables', async () => {
      const bob = person(5, { name: 'bob', invited: true, blockedUntil: Date.now() + 3_600_000 });
      const { posted } = personServer(bob);
      const { user, dialog } = await openPerson(bob);
      await user.click(within(dialog).getByRole('button', { name: 'Unblock' }));
      await waitFor(() => expect(posted).toContainEqual({ unblock: true }));
      await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Unblock' })).not.toBeInTheDocument());
      await user.click(within(dialog).getByRole('button', { name: 'Send invitation again' }));
      await waitFor(() => expect(posted).toContainEqual({ sendLink: true }));
      expect(await screen.findByText('Link sent to user5@example.org', {}, slow)).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
      await waitFor(() => expect(posted).toContainEqual({ disabled: true }));
      expect(await within(dialog).findByRole('button', { name: 'Enable' })).toBeInTheDocument();
    });

    it('removes after a confirmation that counts what goes with the account, and sends the counts', async () => {
      const { deleted } = personServer(ada, { bookmarks: 3, shareLinks: 1 });
      const { user, dialog } = await openPerson(ada);
      await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
      const question = await screen.findByRole('dialog', { name: /Remove the account ada\?/ });
      expect(question).toHaveTextContent('Removes 3 bookmarks and 1 share link.');
      expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await user.click(within(question).getByRole('button', { name: 'Remove' }));
      await waitFor(() => expect(deleted).toEqual([{ bookmarks: '3', shareLinks: '1' }]));
      expect(await screen.findByText('ada removed', {}, slow)).toBeInTheDocument();
    });

    it("shows the server's refusal as it says it (own_admin, last_admin)", async () => {
      const { posted } = personServer(ada, { bookmarks: 0, shareLinks: 0 }, (method) =>
        method === 'DELETE'
          ? HttpResponse.json(
              { error: 'own_admin', message: 'You cannot remove your own account. Ask another admin to do it.' },
              { status: 409 },
            )
          : HttpResponse.json(
              { error: 'last_admin', message: 'This is the last enabled account with admin rights.' },
              { status: 409 },
            ),
      );
      const { user, dialog } = await openPerson(ada);
      await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
      const question = await screen.findByRole('dialog', { name: /Remove the account ada\?/ });
      expect(question).toHaveTextContent('Removes 0 bookmarks and 0 share links.');
      await user.click(within(question).getByRole('button', { name: 'Remove' }));
      expect(
        await within(dialog).findByText('You cannot remove your own account. Ask another admin to do it.'),
      ).toBeInTheDocument();
      await user.click(await within(dialog).findByRole('button', { name: 'Disable' }));
      await waitFor(() => expect(posted).toEqual([{ disabled: true }]));
      expect(
        await within(dialog).findByText('This is the last enabled account with admin rights.'),
      ).toBeInTheDocument();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('asks in German with the counts', async () => {
      personServer(ada, { bookmarks: 1, shareLinks: 2 });
      const { user, dialog } = await openPerson(ada, 'de');
      await user.click(within(dialog).getByRole('button', { name: 'Entfernen' }));
      const question = await screen.findByRole('dialog', { name: /Das Konto ada entfernen\?/ });
      expect(question).toHaveTextContent('Entfernt 1 Merkliste und 2 Freigabelinks.');
    });
  });
});
