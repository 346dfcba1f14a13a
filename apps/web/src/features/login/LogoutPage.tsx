import { Link, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { usePortalRoute } from '../../lib/router.tsx';
import { routeHref } from '@vitrine/contract/paths';
import { PageHeading } from '../../components/PageHeading.tsx';
import { logout, useSession } from '../../stores/session.ts';
import { LoginFrame } from './LoginFrame.tsx';

/** Reloads the portal at its start page, which leads to login when needed. */
const portalStart = () => `${window.location.pathname}${window.location.search}`;

/**
 * The logout route (portal-spec §2 "Logout and no-permission"): it ends a named session and offers to
 * reload and log in again; with the query parameter `permission` it is the no-permission page.
 */
export function LogoutPage() {
  const permission = usePortalRoute('logout')?.permission;
  return <LoginFrame screen="logout">{permission ? <NoPermission /> : <LoggedOut />}</LoginFrame>;
}

function LoggedOut() {
  const { t } = useTranslation();
  const { session, status } = useSession();
  const named = Boolean(session?.user);
  useEffect(() => {
    if (named && status === 'success') void logout();
  }, [named, status]);
  return (
    <>
      <PageHeading titleKey="views.logout.title" />
      <Typography sx={{ mb: 2 }}>{t('views.login.logout.text')}</Typography>
      <Link href={portalStart()}>{t('views.login.logout.again')}</Link>
    </>
  );
}

function NoPermission() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading titleKey="views.login.no_permission.title" />
      <Typography sx={{ mb: 2 }}>{t('views.login.no_permission.text')}</Typography>
      <Link href={routeHref({ page: 'login' })}>{t('views.login.no_permission.again')}</Link>
    </>
  );
}
