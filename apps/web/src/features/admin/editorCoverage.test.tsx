import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configKeys, type ConfigKey } from '@vitrine/contract/config-keys';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';
import { adminServer, server, slow } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

/** Why a key of the config has no editor: the only reasons a key may go without one. */
const reasons = {
  'saved-by-admin-area': 'the admin area writes it itself on every save',
  'text-key': 'it names a text of the translation sets; the texts are edited under Languages',
  'built-in-entry': 'it says which built-in thing an entry is (a view, a sort, a logo, a tour step)',
  'set-when-added': 'it is set when its entry is added, from what the entry is made from',
  'not-read': 'nothing reads it; it stays so that stored configs remain valid',
} as const;
type Reason = keyof typeof reasons;

/** The keys no admin control edits, each with its reason. */
const withoutEditor: Partial<Record<ConfigKey, Reason>> = {
  version: 'saved-by-admin-area',
  'themes.options[].translation': 'text-key',
  'assetInfo.paramsLeft[].translation': 'text-key',
  'assetInfo.paramsRight[].translation': 'text-key',
  'dashboard.collections.data[].translation': 'text-key',
  'dashboard.heroImage.trans_header': 'text-key',
  'dashboard.heroImage.trans_body': 'text-key',
  'facets[].translation': 'text-key',
  'facets[].range_facet': 'set-when-added',
  'facets[].options.formatVal': 'not-read',
  'suggestions[].translation': 'text-key',
  'footer.entries[].translation': 'text-key',
  'infoView.paramsLeft[].translation': 'text-key',
  'infoView.paramsRight[].translation': 'text-key',
  'search.views.options[].icon': 'built-in-entry',
  'search.views.options[].key': 'built-in-entry',
  'search.views.options[].translation': 'text-key',
  'search.list.columns[].translation': 'text-key',
  'search.thumbnails.body[].translation': 'text-key',
  'sorting.options[].key': 'built-in-entry',
  'sorting.options[].translation': 'text-key',
  'sorting.orientation.options[]': 'not-read',
  'visibleLocales[].short': 'set-when-added',
  'visibleLogos[].key': 'built-in-entry',
  'visibleLogos[].translation': 'text-key',
  'guide.tour[].key': 'built-in-entry',
  'guide.tour[].translation': 'text-key',
};

/** A config with an entry in every list and record an editor shows entries of. */
const config: GlobalConfig = {
  ...defaultGlobalConfig,
  themes: {
    ...defaultGlobalConfig.themes,
    options: defaultGlobalConfig.themes.options.map((theme, i) =>
      i === 0 ? { ...theme, advanced_appearance: { 'card.border': '#112233' } } : theme,
    ),
  },
  dashboard: {
    ...defaultGlobalConfig.dashboard,
    collections: {
      ...defaultGlobalConfig.dashboard.collections,
      dam: { all: false, ids: [1] },
      data: [
        {
          key: 'recent',
          position: 0,
          sort: 'title',
          orientation: 'asc',
          search: {
            en: {
              text: 'harbour',
              facets: [
                { key: 'category', values: ['boats'] },
                { key: 'created', values: [], range: { from: '2020', to: '2021' } },
              ],
            },
          },
        },
      ],
    },
  },
  facets: [
    {
      field_name: 'created',
      position: 0,
      range_facet: true,
      labels: { en: 'Created' },
      options: { preview: 10, multivalue: 'slider', sort: 'alphabetical', sort_orientation: 'asc' },
    },
  ],
  suggestions: [{ field_name: 'title' }],
};

type User = Awaited<ReturnType<typeof renderApp>>['user'];

/** The keys the controls in `root` are marked with. */
const markersIn = (root: HTMLElement) =>
  [...root.querySelectorAll('[data-config-key]')].map((e) => e.getAttribute('data-config-key') ?? '');

/** Modals whose controls edit keys: opened, read and closed again. */
const dialogs: Record<string, RegExp> = {
  appearance: /^Colours of /,
  dashboard: /^Edit recent$/,
  language: /^Add language$/,
};

// Found by text and selector, not by role: computing every button's name in a whole section is
// what takes a test's time.
async function markersOfSection(user: User, section: string, name: string): Promise<string[]> {
  await user.click(within(screen.getByRole('navigation', { name: 'Administration' })).getByRole('link', { name }));
  await screen.findByText(name, { selector: 'h2' }, slow);
  const found = markersIn(document.body);
  const dialog = dialogs[section];
  if (dialog) {
    const [button] = screen.getAllByText(dialog, { selector: 'button' });
    await user.click(button!);
    const modal = await waitFor(() => {
      const open = document.querySelector<HTMLElement>('[role="dialog"]');
      expect(open).not.toBeNull();
      return open!;
    }, slow);
    found.push(...markersIn(modal));
    await user.click(within(modal).getByText('Cancel', { selector: 'button' }));
  }
  return found;
}

const sections = {
  appearance: 'Appearance',
  dashboard: 'Dashboard',
  general: 'General',
  language: 'Language settings',
  search: 'Search settings',
  login: 'Login',
};

// Six sections rendered in turn: on a busy machine that can take a minute.
describe('every key of the config has an editor in the admin area (admin-spec §3)', { timeout: 120_000 }, () => {
  it('finds a control marked with each key in the rendered sections, or the key is listed with a known reason', async () => {
    adminServer(config);
    const { user } = await renderApp('/admin/general');
    await screen.findByText('General', { selector: 'h2' }, slow);
    const marked = new Set<string>();
    for (const [section, name] of Object.entries(sections)) {
      for (const key of await markersOfSection(user, section, name)) marked.add(key);
    }
    const keys: readonly string[] = configKeys;
    // Every marker names a key of the schema.
    expect([...marked].filter((key) => !keys.includes(key))).toEqual([]);
    expect(keys.filter((key) => !marked.has(key) && !(key in withoutEditor))).toEqual([]);
    // The list cannot go stale: a listed key exists and has no editor.
    const listed = Object.keys(withoutEditor);
    expect(listed.filter((key) => !keys.includes(key))).toEqual([]);
    expect(listed.filter((key) => marked.has(key))).toEqual([]);
  });

  it('accepts only the reasons it knows for a key without editor', () => {
    const known: readonly string[] = Object.keys(reasons);
    expect(Object.entries(withoutEditor).filter(([, reason]) => !known.includes(reason))).toEqual([]);
  });
});
