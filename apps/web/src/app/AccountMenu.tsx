import { Button, IconButton } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { Link as RouterLink, useLocation, useNavigate } from '../lib/router.tsx';
import {
  AccountIcon,
  DeleteIcon,
  DuplicatesIcon,
  HomeIcon,
  LoginIcon,
  LogoutIcon,
  SettingsIcon,
  ShareIcon,
  UploadIcon,
} from '../components/icons.tsx';
import { IconTooltip } from '../components/IconTooltip.tsx';
import { useHeaderMenu } from './headerMenu.ts';
import { ADMIN_START, startPath, useSession } from '../stores/session.ts';
import { pageOf, routePath } from '@vitrine/contract/paths';
import type { AccountAction } from './ShellMenus.tsx';
import { BIN_PATH } from '../widgets/edit/binPath.ts';
import { DUPLICATES_PATH } from '../widgets/edit/duplicatesPath.ts';

const AccountMenuList = lazy(() => import('./ShellMenus.tsx').then((m) => ({ default: m.AccountMenuList })));

const login = routePath({ page: 'login' });

/**
 * The account entry of the header: "Log in" for a guest; for a logged-in user their name with a menu
 * that leads to the admin area (GUI admins) or back to the portal (from the admin area), to the
 * upload page (editors), and logs out. On phones it is an icon button with the same name.
 */
export function AccountMenu({ compact, hideDashboard }: { compact: boolean; hideDashboard: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { session, status } = useSession();
  const { trigger, menu } = useHeaderMenu('account-menu');
  if (status === 'initial' || status === 'loading') return null;

  const name = session?.user;
  if (!name) {
    if (pageOf(pathname) === 'login') return null;
    const label = t('global.account.login');
    return compact ? (
      <IconTooltip title={label}>
        <IconButton color="inherit" component={RouterLink} to={login} aria-label={label}>
          <LoginIcon />
        </IconButton>
      </IconTooltip>
    ) : (
      <Button color="inherit" component={RouterLink} to={login} startIcon={<LoginIcon />}>
        {label}
      </Button>
    );
  }

  const actions: AccountAction[] = [];
  const inAdmin = pageOf(pathname) === 'admin';
  if (session.isGuiAdmin && !inAdmin) {
    actions.push({
      key: 'admin',
      label: t('global.account.admin'),
      icon: SettingsIcon,
      run: () => void navigate(ADMIN_START),
    });
  }
  if (session.isAssetUser && inAdmin) {
    actions.push({
      key: 'portal',
      label: t('global.account.portal'),
      icon: HomeIcon,
      run: () => void navigate(startPath(hideDashboard)),
    });
  }
  if (session.isEditor && !inAdmin) {
    actions.push({
      key: 'upload',
      label: t('upload.menu'),
      icon: UploadIcon,
      run: () => void navigate(routePath({ page: 'upload' })),
    });
  }
  if (session.isAssetUser && !inAdmin) {
    actions.push({
      key: 'shares',
      label: t('global.account.shares'),
      icon: ShareIcon,
      run: () => void navigate(routePath({ page: 'shares' })),
    });
  }
  if (session.isEditor && session.isAssetUser && !inAdmin) {
    actions.push({ key: 'bin', label: t('edit.bin.menu'), icon: DeleteIcon, run: () => void navigate(BIN_PATH) });
    actions.push({
      key: 'duplicates',
      label: t('alike.duplicates.menu'),
      icon: DuplicatesIcon,
      run: () => void navigate(DUPLICATES_PATH),
    });
  }
  actions.push({
    key: 'logout',
    label: t('global.account.logout'),
    icon: LogoutIcon,
    run: () => void navigate(routePath({ page: 'logout' })),
  });

  const label = t('global.account.menu', { name });
  return (
    <>
      {compact ? (
        <IconTooltip title={label}>
          <IconButton color="inherit" aria-label={label} {...trigger}>
            <AccountIcon />
          </IconButton>
        </IconTooltip>
      ) : (
        <Button
          color="inherit"
          aria-label={label}
          startIcon={<AccountIcon />}
          sx={{ textTransform: 'none', maxWidth: 220 }}
          {...trigger}
        >
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{name}</span>
        </Button>
      )}
      {menu && (
        <Suspense fallback={null}>
          <AccountMenuList menu={menu} signedInAs={t('global.account.signed_in_as', { name })} actions={actions} />
        </Suspense>
      )}
    </>
  );
}
