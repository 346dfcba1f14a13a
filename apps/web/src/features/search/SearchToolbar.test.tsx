import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { createQueryClient, Providers } from '../../app/Providers.tsx';
import { createI18n } from '../../stores/i18n.ts';
import { server } from '../../test/msw.ts';
import { startTestServer } from '../../test/testServer.ts';
import { expectPortalTooltip } from '../../test/tooltip.ts';
import { ViewSwitch } from './SearchToolbar.tsx';

startTestServer(server, 'bypass');

describe('the view switch (portal-spec §2 "Search": view icons)', () => {
  it.each([
    ['en', ['Posters', 'Thumbnails', 'List']],
    ['de', ['Poster', 'Kacheln', 'Liste']],
  ])('names each view in the portal tooltip of portal-spec §9, not the library default (%s)', async (locale, names) => {
    localStorage.setItem('locale', locale);
    const i18n = await createI18n();
    render(
      <Providers i18n={i18n} queryClient={createQueryClient()}>
        <ViewSwitch views={defaultGlobalConfig.search.views.options} view="grid" onChange={() => undefined} />
      </Providers>,
    );
    const user = userEvent.setup();
    for (const name of names) await expectPortalTooltip(user, screen.getByRole('button', { name }), name);
    expect(screen.getByRole('button', { name: names[0] })).toHaveAttribute('aria-pressed', 'true');
  });
});
