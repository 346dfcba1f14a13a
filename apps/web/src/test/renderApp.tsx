import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from '../lib/router.tsx';
import { createI18n } from '../stores/i18n.ts';
import { createQueryClient, Providers } from '../app/Providers.tsx';
import { routes } from '../app/routes.tsx';

/**
 * The whole app at a route, in a language, with its real routes, providers and navigation rules.
 * `remoteTexts` takes the languages and texts from the server's translation sets, as the portal
 * does, so a language an admin added can be shown; else the bundled English and German.
 */
export async function renderApp(path: string, options: { locale?: string; remoteTexts?: boolean } = {}) {
  localStorage.setItem('locale', options.locale ?? 'en');
  const i18n = await createI18n({ remote: options.remoteTexts ?? false });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  render(
    <Providers i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, i18n, queryClient, user: userEvent.setup() };
}
