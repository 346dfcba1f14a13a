import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createI18n } from '../app/i18n.ts';
import { createQueryClient, Providers } from '../app/Providers.tsx';
import { routes } from '../app/routes.tsx';

/** The whole app in English at `path`, with its real routes, providers and navigation rules. */
export async function renderApp(path: string) {
  localStorage.setItem('locale', 'en');
  const i18n = await createI18n();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers i18n={i18n} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, user: userEvent.setup() };
}
