// First: the first screen's code downloads while the modules below run.
import './app/firstScreen.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHashRouter, RouterProvider, routerReady } from './lib/router.tsx';
import { firstPaintPage } from './lib/firstPaint.ts';
import { createI18n } from './stores/i18n.ts';
import { reloadOnStaleChunks } from './app/newVersion.ts';
import { createQueryClient, Providers } from './app/Providers.tsx';
import { routes } from './app/routes.tsx';
import { startSession } from './stores/session.ts';

// The modules above were evaluated in one task; what follows runs in the next, so that neither holds
// a phone's processor for long (decision 0244).
await new Promise((resolve) => setTimeout(resolve, 0));
const i18n = await createI18n({ remote: true });
const router = createHashRouter(routes);
// The session call runs while the first screen draws (the navigation guard waits for it); on a
// portal page it takes the answer the page's script asked for (first-paint/earlyAnswers.ts).
const session = startSession(router.state.location.pathname, router.state.location.search);
reloadOnStaleChunks(() => {
  const to = router.state.navigation.location;
  return to ? `${to.pathname}${to.search}` : undefined;
});
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// The first render is a transition: React yields to the browser between components instead of
// drawing the whole shell in one long task.
const reactRoot = createRoot(root);
const render = () =>
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <Providers i18n={i18n} queryClient={createQueryClient()}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  });
// Behind the page's first paint nothing of the app is seen until its screen is drawn: its first
// render waits for the session and for the router's first route, whose code the page asked for
// beside the app's (config/first-paint.ts screenFiles), so that no store the app reads changes while
// it renders; a change midway makes React draw the whole tree again at once, in one long task
// (decision 0244). Not awaited here: the screen's code imports this module's chunk, which would wait
// for this module in turn.
if (firstPaintPage()) void Promise.all([session, routerReady(router)]).then(render);
else render();
