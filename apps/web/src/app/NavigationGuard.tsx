import { useEffect, useState, type ReactNode } from 'react';
import { pageOf } from '@vitrine/contract/paths';
import { Navigate, useLocation } from '../lib/router.tsx';
import { PageLoading } from '../components/PageLoading.tsx';
import { globalAccess, guardTarget, returnAfterLogin, startSession, useSession } from '../stores/session.ts';

/**
 * Applies the navigation rules of portal-spec §2 and the admin entry rules of admin-spec §2 to every
 * route: it loads the session once, then sends visitors without rights to login, non-admins away
 * from /admin (back to the page they came from, if any) and admins without portal access to the
 * admin area.
 */
export function NavigationGuard({ children }: { children: ReactNode }) {
  const s = useSession();
  const location = useLocation();
  useEffect(
    () => void startSession(location.pathname, location.search),
    [s.status, location.pathname, location.search],
  );

  // The last page shown: a refused admin entry goes back to it.
  const [shown, setShown] = useState<string>();
  const waiting = s.status === 'initial' || s.status === 'loading' || s.status === 'verifying';
  const here = location.pathname + location.search;
  const target = globalAccess(location.pathname) || waiting ? undefined : guardTarget(location.pathname, s, shown);
  // A portal page, kept while rendering (React's pattern for a value from earlier renders).
  const portalPage = !globalAccess(location.pathname) && pageOf(location.pathname) !== 'admin';
  if (!waiting && !target && portalPage && shown !== here) setShown(here);
  // A guest sent to log in for the upload page comes back to it (issue #49).
  const uploadLogin = target !== undefined && pageOf(target) === 'login' && pageOf(location.pathname) === 'upload';
  useEffect(() => {
    if (uploadLogin) returnAfterLogin(location.pathname);
  }, [uploadLogin, location.pathname]);

  if (globalAccess(location.pathname)) return children;
  if (waiting) return <PageLoading />;
  return target ? <Navigate to={target} replace /> : children;
}
