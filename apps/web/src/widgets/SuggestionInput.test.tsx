import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { SuggestionGroup } from '@vitrine/contract/search';
import { createQueryClient, Providers } from '../app/Providers.tsx';
import { createI18n } from '../stores/i18n.ts';
import type { SuggestionOption } from '../stores/searchInput.ts';
import { loadSession } from '../stores/session.ts';
import { server } from '../test/msw.ts';
import { startTestServer } from '../test/testServer.ts';
import { SuggestionInput } from './SuggestionInput.tsx';

startTestServer(server, 'bypass');

const groups: SuggestionGroup[] = [
  {
    field_name: 'keywords',
    docs: [
      { label: 'rose', value: 'rose' },
      { label: 'roses', value: 'roses' },
    ],
    preview: 5,
    total: 2,
  },
];

function Search({ submitted }: { submitted: string[] }) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<SuggestionOption[]>([]);
  return (
    <SuggestionInput
      id="search"
      groups={groups}
      text={text}
      onTextChange={setText}
      chosen={chosen}
      onChosenChange={setChosen}
      onSubmit={() => submitted.push(text)}
      labelOf={(field) => field}
    />
  );
}

describe('the search input (portal-spec §2 "Search": suggestions open on focus)', () => {
  it('closes the suggestions when the search is submitted with Enter, so the results are not covered', async () => {
    localStorage.setItem('locale', 'en');
    await loadSession();
    const i18n = await createI18n();
    const submitted: string[] = [];
    render(
      <Providers i18n={i18n} queryClient={createQueryClient()}>
        <Search submitted={submitted} />
      </Providers>,
    );
    const user = userEvent.setup();
    const input = await screen.findByRole('combobox');
    await user.click(input);
    await user.type(input, 'ro');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(submitted).toEqual(['ro']);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // Typing again opens them again.
    await user.type(input, 's');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
  });

  it('portal-spec §9 "Suggestions menu max height 310": the menu is at most 310 px high and scrolls beyond', async () => {
    localStorage.setItem('locale', 'en');
    await loadSession();
    const i18n = await createI18n();
    render(
      <Providers i18n={i18n} queryClient={createQueryClient()}>
        <Search submitted={[]} />
      </Providers>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox'));
    await user.keyboard('ro');
    const list = await screen.findByRole('listbox');
    expect(getComputedStyle(list).maxHeight).toBe('310px');
    expect(getComputedStyle(list).overflow).toBe('auto');
  });
});
