import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { useNavigate, usePortalRoute } from '../../lib/router.tsx';
import { routePath } from '@vitrine/contract/paths';
import { enterShare, useSession } from '../../stores/session.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { ApiError } from '../../lib/apiClient.ts';
import { openShare } from '../../stores/shares.ts';

type Phase =
  | { kind: 'opening' }
  | { kind: 'password'; problem?: 'wrong' | 'blocked'; minutes?: number }
  | { kind: 'invalid' }
  | { kind: 'failed' };

/**
 * Where a share link lands (`#/share/<token>`), for people without an account: asks for the
 * password when the link has one, then shows the shared assets on the search page, limited by the
 * server to the link.
 */
export function ShareLandingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = usePortalRoute('share')?.token ?? '';
  const { status } = useSession();
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' });
  const [password, setPassword] = useState('');
  const tried = useRef(false);

  const attempt = async (pass?: string) => {
    try {
      const answer = await openShare(token, pass);
      enterShare(answer.session);
      void navigate(routePath({ page: 'search' }), { replace: true });
    } catch (err) {
      const id = err instanceof ApiError ? err.body?.error : undefined;
      if (id === 'share_password_required') setPhase({ kind: 'password' });
      else if (id === 'wrong_share_password') setPhase({ kind: 'password', problem: 'wrong' });
      else if (id === 'login_blocked') {
        setPhase({
          kind: 'password',
          problem: 'blocked',
          minutes: err instanceof ApiError ? (err.body?.retryAfterMinutes ?? 1) : 1,
        });
      } else if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setPhase({ kind: 'invalid' });
      else setPhase({ kind: 'failed' });
    }
  };

  // Once the session (and with it the XSRF cookie) is there, so the guest session cannot replace the link's.
  const ready = status === 'success' || status === 'unauthorized';
  useEffect(() => {
    if (!ready || tried.current) return;
    tried.current = true;
    void attempt();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opened once per visit
  }, [ready]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) void attempt(password);
  };

  return (
    <Box sx={{ maxWidth: 480 }}>
      <PageHeading titleKey="views.share_landing.title" />
      {phase.kind === 'opening' && <Typography role="status">{t('views.share_landing.opening')}</Typography>}
      {phase.kind === 'invalid' && <Alert severity="warning">{t('views.share_landing.invalid')}</Alert>}
      {phase.kind === 'failed' && <Alert severity="error">{t('toast.download.error')}</Alert>}
      {phase.kind === 'password' && (
        <form onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <Typography>{t('views.share_landing.password_prompt')}</Typography>
            <TextField
              label={t('views.share_landing.password')}
              type="password"
              autoComplete="current-password"
              autoFocus
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={phase.problem !== undefined}
            />
            {phase.problem && (
              <Alert severity="error" role="alert">
                {phase.problem === 'wrong'
                  ? t('views.share_landing.wrong')
                  : t('views.share_landing.blocked', { count: phase.minutes ?? 1 })}
              </Alert>
            )}
            <Button type="submit" variant="contained" disabled={!password} sx={{ alignSelf: 'flex-start' }}>
              {t('views.share_landing.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Box>
  );
}
