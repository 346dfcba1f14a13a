import { Alert, Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { useNavigate, usePortalRoute } from '../../lib/router.tsx';
import { routePath } from '@vitrine/contract/paths';
import { FRONTEND_VERSION } from '@vitrine/contract/version';
import { PageHeading } from '../../components/PageHeading.tsx';
import { RELOAD_KEY } from '../../lib/apiClient.ts';
import { toast } from '../../lib/toast.ts';
import { useGlobalConfig } from '../../stores/config.ts';
import {
  backendVersionFor,
  landingPath,
  login,
  useSession,
  versionWarning,
  type LoginOutcome,
} from '../../stores/session.ts';
import { LoginFrame } from './LoginFrame.tsx';
import { ResetPasswordDialog } from './ResetPasswordDialog.tsx';

/** Time until the fallback link shows when the page redirects to single sign-on (portal-spec §9). */
export const REDIRECT_HINT_MS = 5000;

/** Only a `stay` that is present and falsy asks for the redirect; an absent one keeps the page. */
const explicitlyFalsy = (value: string | undefined) =>
  value !== undefined && ['', '0', 'false', 'no'].includes(value.toLowerCase());

/** How the page leaves for single sign-on; replaceable in tests, where jsdom cannot navigate away. */
export const ssoNavigation = { assign: (url: string): void => window.location.assign(url) };

/** The login screen of portal-spec §2 "Login" with the outcomes of §4 "Login" and §8 "Login". */
export function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const route = usePortalRoute('login');
  const { status, session, loginMethods, sharedIds } = useSession();
  const config = useGlobalConfig().config.login;
  const [user, setUser] = useState('');
  const [pass, setPass] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [showFallback, setShowFallback] = useState(false);

  const native = loginMethods.length === 0 || loginMethods.some((m) => m.name === 'native');
  const external = loginMethods.filter((m) => m.name !== 'native');
  const ssoFailed = route?.sso === 'failed';
  // The provider knew the person, but an admin disabled the account (issue #50).
  const ssoDisabled = route?.sso === 'disabled';
  const ssoCode = route?.code;
  // After a failed single sign-on the page stays, so that it does not redirect in a loop.
  const ssoOnly = !native && external.length > 0 && explicitlyFalsy(route?.stay) && !ssoFailed && !ssoDisabled;
  const ssoUrl = ssoOnly ? external[0]?.url : undefined;

  useEffect(() => localStorage.removeItem(RELOAD_KEY), []);
  useEffect(() => {
    if (ssoFailed) toast.show('toast.login.sso_failed', 'error');
  }, [ssoFailed]);
  useEffect(() => {
    if (ssoDisabled) toast.show('toast.login.account_disabled', 'error');
  }, [ssoDisabled]);

  useEffect(() => {
    if (!ssoUrl) return;
    ssoNavigation.assign(ssoUrl);
    const timer = setTimeout(() => setShowFallback(true), REDIRECT_HINT_MS);
    return () => clearTimeout(timer);
  }, [ssoUrl]);

  const announce = (outcome: LoginOutcome) => {
    if (outcome.ok) {
      const s = outcome.session;
      if (!s.isAssetUser && !s.isGuiAdmin) {
        toast.show('toast.login.unauthorized', 'info');
        void navigate(routePath({ page: 'logout', permission: true }), { replace: true });
        return;
      }
      if (versionWarning(outcome.backendVersion)) {
        toast.show('toast.login.version_mismatch', 'warning', {
          backend: outcome.backendVersion ?? '',
          frontend: FRONTEND_VERSION,
        });
      }
      void navigate(landingPath(s, sharedIds), { replace: true });
    } else if (outcome.reason === 'blocked') {
      const minutes = outcome.minutes ?? 1;
      const duration =
        minutes === 1 ? t('toast.login.blocked_one_minute') : t('toast.login.blocked_minutes', { 0: minutes });
      toast.show('toast.login.blocked', 'error', { 0: duration });
    } else if (outcome.reason === 'wrong') {
      toast.show('toast.login.wrong', 'error');
    } else if (outcome.reason === 'disabled') {
      toast.show('toast.login.account_disabled', 'error');
    }
  };

  // Back from single sign-on: the NavigationGuard exchanges the code of `?code=` for a session.
  useEffect(() => {
    if (ssoCode && session?.user && (status === 'success' || status === 'unauthorized')) {
      // An admin coming back from single sign-on is warned of a version mismatch too.
      void backendVersionFor(session).then((backendVersion) => announce({ ok: true, session, backendVersion }));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per loaded single sign-on session
  }, [ssoCode, session, status]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    // Reusing an existing session with empty credentials happens when the page loads (NavigationGuard).
    if (!user || !pass) return;
    announce(await login(user, pass));
  };

  const register = () => {
    const link = config.register.links[i18n.language];
    if (link) window.open(link, '_blank', 'noopener');
    else toast.show('toast.login.register_failed', 'warning');
  };

  const verifying = status === 'verifying';
  const missing = (value: string) => submitted && !value;

  if (ssoUrl) {
    return (
      <LoginFrame screen="login">
        <PageHeading titleKey="views.login.title" textTransform={config.headers.transform} />
        <Alert severity="info" role="status">
          {t('views.login.redirect')}
        </Alert>
        {showFallback && (
          <Link href={ssoUrl} sx={{ display: 'inline-block', mt: 2 }}>
            {t('views.login.redirect_fallback')}
          </Link>
        )}
      </LoginFrame>
    );
  }

  return (
    <LoginFrame screen="login">
      <PageHeading titleKey="views.login.title" textTransform={config.headers.transform} />
      <Typography sx={{ mb: 3, textAlign: config.infoText.alignment }}>{t('views.login.welcome')}</Typography>
      {native && (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
          <Stack spacing={2}>
            <TextField
              label={t('views.login.username')}
              value={user}
              onChange={(e) => setUser(e.target.value)}
              autoComplete="username"
              required
              error={missing(user)}
              helperText={missing(user) ? t('global.required') : ' '}
            />
            <TextField
              label={t('views.login.password')}
              type="password"
              value={pass}
              onChange={(e) => setPass(e.target.value)}
              autoComplete="current-password"
              required
              error={missing(pass)}
              helperText={missing(pass) ? t('global.required') : ' '}
            />
            <Button type="submit" variant="contained" size="large" loading={verifying}>
              {t('views.login.submit')}
            </Button>
          </Stack>
        </Box>
      )}
      <Stack spacing={1} sx={{ mt: 2 }}>
        {external.map((m) => (
          <Button key={m.name} variant="outlined" href={m.url} disabled={verifying}>
            {t('views.login.sso', { name: m.name.toUpperCase() })}
          </Button>
        ))}
        {native && config.show_passwordReset && (
          <Button onClick={() => setResetOpen(true)} disabled={verifying}>
            {t('views.login.reset_password')}
          </Button>
        )}
        {config.register.show_button && (
          <Button onClick={register} disabled={verifying}>
            {t('views.login.register')}
          </Button>
        )}
      </Stack>
      <ResetPasswordDialog open={resetOpen} onClose={() => setResetOpen(false)} />
    </LoginFrame>
  );
}
