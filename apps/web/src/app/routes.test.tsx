import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createI18n } from './i18n.ts';
import { createQueryClient, Providers } from './Providers.tsx';
import { routes } from './routes.tsx';

async function renderAt(path: string) {
  localStorage.setItem('locale', 'en');
  const i18n = await createI18n();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers i18n={i18n} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

describe('route table (portal-spec §2 "Screens and routes")', () => {
  it('renders the search screen for /search/{query}', async () => {
    await renderAt('/search/*');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
  });

  it.each(['/search', '/asset', '/no/such/page'])('redirects %s to the dashboard', async (path) => {
    const router = await renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
  });

  it('opens /admin on the general section (admin-spec §2)', async () => {
    const router = await renderAt('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/general'));
    expect(await screen.findByRole('heading', { level: 2, name: 'General' })).toBeInTheDocument();
  });

  it('sets the page title from website title, separator and page title', async () => {
    await renderAt('/bookmark');
    await screen.findByRole('heading', { level: 1, name: 'Bookmarks' });
    await waitFor(() => expect(document.title).toBe('Vitrine | Bookmarks'));
  });
});
