// First: the first screen's code downloads while the modules below run.
import './app/firstScreen.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { earlyAnswersEnded } from './lib/apiClient.ts';
import { createHashRouter, RouterProvider, routerReady } from './lib/router.tsx';
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
// The first render waits for the session, for the router's first route, whose code the page asked
// for beside the app's (config/first-paint.ts screenFiles), and for the answers the page asked early,
// so that no store the app reads changes while it renders: a change midway makes React draw the
// whole tree again at once, in one long task (decision 0244; a wide search page, which has no first
// paint, drew its whole screen twice when the route's code came during the render). Behind the
// page's first paint nothing of the app is seen until its screen is drawn; without one, the page is
// empty until the app's code has come in any case. At most FIRST_RENDER_WAIT_MS, so that a call that
// hangs leaves the app to show its own loading state. Not awaited here: the screen's code imports
// this module's chunk, which would wait for this module in turn.
const FIRST_RENDER_WAIT_MS = 3_000;
void Promise.race([
  Promise.all([session, routerReady(router), earlyAnswersEnded(FIRST_RENDER_WAIT_MS)]),
  new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)),
]).then(render);
