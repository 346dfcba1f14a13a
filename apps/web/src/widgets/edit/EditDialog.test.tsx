import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createI18n } from '../../stores/i18n.ts';
import { createQueryClient, Providers } from '../../app/Providers.tsx';
import { enterShare } from '../../stores/session.ts';
import { ToastHost } from '../../components/ToastHost.tsx';
import { api, configHandlers, server, sessionAnswer } from '../../test/msw.ts';
import { startTestServer } from '../../test/testServer.ts';
import { mediaQueryList } from '../../test/mediaQueries.ts';
import { editHandlers, editOptions, type EditCalls } from '../../test/editServer.ts';
import { AssetEditorActions, SelectionEditorActions } from './EditorControls.tsx';

startTestServer(server, 'bypass');
vi.setConfig({ testTimeout: 60_000 });

/** The editor's controls for asset 42 and for a selection of three, as the asset and search pages place them. */
async function renderControls({ locale = 'en', isEditor = true, admin = false } = {}) {
  localStorage.setItem('locale', locale);
  const calls: EditCalls = {};
  server.use(...configHandlers(), ...editHandlers(calls, editOptions({ canRemove: admin })));
  act(() => enterShare(sessionAnswer({ user: 'anna', session: 'anna-token', isEditor })));
  render(
    <Providers i18n={await createI18n()} queryClient={createQueryClient()}>
      <AssetEditorActions id="42" />
      <SelectionEditorActions ids={['1', '2', '3']} />
      <ToastHost />
    </Providers>,
  );
  return { calls, user: userEvent.setup() };
}

describe('the edit dialog (issue #49 "Metadata editing")', () => {
  it("starts with one asset's values, marks edited fields, and saves a set with an Undo in the notice", async () => {
    const { calls, user } = await renderControls();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit harbour.jpg' });
    const title = await within(dialog).findByRole('textbox', { name: 'Title (EN)' });
    expect(title).toHaveValue('Harbour at night');
    expect(title).toHaveAccessibleDescription(/^Edited by anna on /);
    expect(within(dialog).getByRole('checkbox', { name: 'public' })).toBeChecked();
    // Only admins give a field back to the file.
    expect(within(dialog).queryByRole('button', { name: /file's value/ })).not.toBeInTheDocument();

    // The German title is the same field in the other content language.
    await user.click(within(dialog).getByRole('button', { name: 'Content language DE' }));
    expect(within(dialog).getByRole('textbox', { name: 'Title (DE)' })).toHaveValue('Hafen bei Nacht');
    await user.click(within(dialog).getByRole('button', { name: 'Content language EN' }));

    await user.clear(within(dialog).getByRole('textbox', { name: 'Title (EN)' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Title (EN)' }), 'Harbour at dusk');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('1 asset changed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls['edit/apply']).toEqual([
      { ids: ['42'], changes: [{ field: 'title', lang: 'en', op: 'set', values: ['Harbour at dusk'] }] },
    ]);
    // One asset edits directly: no preview.
    expect(calls['edit/preview']).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('1 asset set back')).toBeInTheDocument();
    expect(calls['edit/undo']).toEqual([{ batch: 7 }]);
  });

  it.each([
    ['en', 'Edit', 'Edit harbour.jpg', "Use the file's value for Title", "Title has the file's value again"],
    [
      'de',
      'Bearbeiten',
      'harbour.jpg bearbeiten',
      'Wert der Datei für Titel verwenden',
      'Titel hat wieder den Wert der Datei',
    ],
  ])('in %s lets an admin give an edited field back to the file', async (locale, open, dialogName, reset, done) => {
    const { calls, user } = await renderControls({ locale, admin: true });
    await user.click(await screen.findByRole('button', { name: open }));
    const dialog = await screen.findByRole('dialog', { name: dialogName });
    // Only the edited field has the button: the keywords were not edited.
    expect(await within(dialog).findAllByRole('button', { name: new RegExp(reset.split(' ')[0]!) })).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: reset }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(done);
    expect(calls['edit/reset']).toEqual([{ id: '42', field: 'title' }]);
    // Nothing else was saved, and the dialog stays open for the rest.
    expect(calls['edit/apply']).toBeUndefined();
    expect(dialog).toBeInTheDocument();
  });

  it('makes a new collection from the typed name and puts the asset in it', async () => {
    const { calls, user } = await renderControls();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit harbour.jpg' });
    const collections = await within(dialog).findByRole('combobox', { name: 'Collections' });
    // A name the catalogue has is chosen, not made again.
    await user.type(collections, 'harbour');
    expect(screen.queryByRole('option', { name: /Make collection/ })).not.toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Photos/Harbour' })).toBeInTheDocument();
    await user.clear(collections);
    await user.type(collections, 'Regatta 2026');
    await user.click(await screen.findByRole('option', { name: 'Make collection “Regatta 2026”' }));
    expect(await within(dialog).findByRole('button', { name: 'Regatta 2026' })).toBeInTheDocument();
    expect(calls['edit/collection']).toEqual([{ name: 'Regatta 2026' }]);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('1 asset changed')).toBeInTheDocument();
    expect(calls['edit/apply']).toEqual([
      { ids: ['42'], changes: [{ field: 'collections', lang: '', op: 'set', values: ['11'] }] },
    ]);
  });

  it('for a selection starts empty, adds a keyword, shows how many assets change before it saves', async () => {
    const { calls, user } = await renderControls();
    await user.click(await screen.findByRole('button', { name: 'Edit selection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 3 assets' });
    expect(within(dialog).getByRole('combobox', { name: 'Change of Keywords' })).toHaveValue('add');
    const keywords = within(dialog).getByRole('combobox', { name: 'Keywords' });
    expect(keywords).toHaveValue('');
    await user.type(keywords, 'boat{Enter}');
    expect(within(dialog).getByRole('button', { name: 'boat' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Check changes' }));
    expect(await within(dialog).findByText('2 of 3 assets will change')).toBeInTheDocument();
    const change = { ids: ['1', '2', '3'], changes: [{ field: 'keywords', lang: '', op: 'add', values: ['boat'] }] };
    expect(calls['edit/preview']).toEqual([change]);
    expect(calls['edit/apply']).toBeUndefined();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('2 assets changed')).toBeInTheDocument();
    expect(calls['edit/apply']).toEqual([change]);
    // The keyword field offered the values the facet knows.
    expect(calls.search?.[0]).toContain('solr_facetfields=keywords');
  });

  it('finds and replaces inside a text field of a selection, in the chosen content language', async () => {
    const { calls, user } = await renderControls();
    await user.click(await screen.findByRole('button', { name: 'Edit selection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 3 assets' });
    await user.click(within(dialog).getByRole('button', { name: 'Content language DE' }));
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Change of Title (DE)' }),
      'Find and replace',
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Find in Title (DE)' }), 'Hafen');
    await user.type(within(dialog).getByRole('textbox', { name: 'Replace with' }), 'Port');
    await user.click(within(dialog).getByRole('button', { name: 'Check changes' }));
    await within(dialog).findByText('2 of 3 assets will change');
    expect(calls['edit/preview']).toEqual([
      {
        ids: ['1', '2', '3'],
        changes: [{ field: 'title', lang: 'de', op: 'replace', values: ['Port'], find: 'Hafen' }],
      },
    ]);
  });

  it('shows a refusal at the field it names and keeps what was typed', async () => {
    const { calls, user } = await renderControls();
    const message = 'title: at most 200 characters';
    server.use(
      http.post(api('edit/apply'), () =>
        HttpResponse.json(
          { error: 'validation', message, details: [{ path: 'changes.0.values.0', message: 'Too long' }] },
          { status: 400 },
        ),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit harbour.jpg' });
    const title = await within(dialog).findByRole('textbox', { name: 'Title (EN)' });
    await user.clear(title);
    await user.type(title, 'A very long title');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`Title (EN): ${message}`);
    expect(title).toHaveAccessibleDescription(message);
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveValue('A very long title');
    expect(screen.getByRole('dialog', { name: 'Edit harbour.jpg' })).toBeInTheDocument();
    expect(calls['edit/apply']).toBeUndefined();
  });

  it('speaks German: the selection dialog, its preview and its notice', async () => {
    const { user } = await renderControls({ locale: 'de' });
    await user.click(await screen.findByRole('button', { name: 'Auswahl bearbeiten' }));
    const dialog = await screen.findByRole('dialog', { name: '3 Assets bearbeiten' });
    // Localised fields start in the caller's language, not in the first of the catalogue's.
    expect(within(dialog).getByRole('button', { name: /DE$/, pressed: true })).toBeInTheDocument();
    await user.type(within(dialog).getByRole('combobox', { name: 'Schlagwörter' }), 'Boot{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Änderungen prüfen' }));
    expect(await within(dialog).findByText('2 von 3 Assets werden geändert')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('2 Assets geändert')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rückgängig' })).toBeInTheDocument();
  });

  it('Escape closes the dialog and gives the focus back to the Edit button', async () => {
    const { user } = await renderControls();
    const edit = await screen.findByRole('button', { name: 'Edit' });
    await user.click(edit);
    await screen.findByRole('dialog', { name: 'Edit harbour.jpg' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(edit).toHaveFocus();
  });

  it.each([
    { screen: 'a phone (375 px)', phone: true },
    { screen: 'a desktop', phone: false },
  ])('on $screen the dialog fills the screen only on a phone', async ({ phone }) => {
    // jsdom lays nothing out: the screen is what its media queries answer (MUI's sm breakpoint is 600 px).
    vi.stubGlobal('matchMedia', (query: string) =>
      mediaQueryList(query, phone && query.includes('max-width:599.95px')),
    );
    onTestFinished(() => void vi.unstubAllGlobals());
    const { user } = await renderControls();
    await user.click(await screen.findByRole('button', { name: 'Edit selection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 3 assets' });
    expect(dialog.classList.contains('MuiDialog-paperFullScreen')).toBe(phone);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('draws nothing and asks nothing for a user who is not an editor', async () => {
    const { calls } = await renderControls({ isEditor: false });
    // Were the controls shown, their code would be here now.
    await act(() => Promise.all([import('./EditTools.tsx'), import('./HistorySection.tsx')]));
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit selection' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move to bin' })).not.toBeInTheDocument();
    expect(calls).toEqual({});
  });
});
