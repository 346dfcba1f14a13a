// First: the first screen's code downloads while the modules below run.
import './app/firstScreen.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHashRouter, RouterProvider } from './lib/router.tsx';
import { createI18n } from './stores/i18n.ts';
import { reloadOnStaleChunks } from './app/newVersion.ts';
import { createQueryClient, Providers } from './app/Providers.tsx';
import { routes } from './app/routes.tsx';
import { startSession } from './stores/session.ts';

const i18n = await createI18n({ remote: true });
const router = createHashRouter(routes);
// The session call runs while the first screen draws (the navigation guard waits for it); on a
// portal page it takes the answer app/firstScreen.ts asked for (first-paint/earlyAnswers.ts).
startSession(router.state.location.pathname, router.state.location.search);
reloadOnStaleChunks(() => {
  const to = router.state.navigation.location;
  return to ? `${to.pathname}${to.search}` : undefined;
});
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// The first render is a transition: React yields to the browser between components instead of
// drawing the whole shell in one long task.
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <Providers i18n={i18n} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
