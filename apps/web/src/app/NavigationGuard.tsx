import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from '../lib/router.tsx';
import { PageLoading } from '../components/PageLoading.tsx';
import { globalAccess, guardTarget, startSession, useSession } from '../stores/session.ts';

/**
 * Applies the navigation rules of portal-spec §2 and the admin entry rules of admin-spec §2 to every
 * route: it loads the session once, then sends visitors without rights to login, non-admins away
 * from /admin and admins without portal access to the admin area.
 */
export function NavigationGuard({ children }: { children: ReactNode }) {
  const s = useSession();
  const location = useLocation();
  useEffect(() => startSession(location.pathname, location.search), [s.status, location.pathname, location.search]);

  if (globalAccess(location.pathname)) return children;
  if (s.status === 'initial' || s.status === 'loading' || s.status === 'verifying') return <PageLoading />;
  const target = guardTarget(location.pathname, s);
  return target ? <Navigate to={target} replace /> : children;
}
