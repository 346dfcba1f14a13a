import { Alert, Box, Button, Link, Paper, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { usePortalRoute } from '../../lib/router.tsx';
import { routeHref } from '@vitrine/contract/paths';
import { resetPasswordCall } from '@vitrine/contract/endpoints';
import { PageHeading } from '../../components/PageHeading.tsx';
import { ApiError, callApi } from '../../lib/apiClient.ts';

const MIN_LENGTH = 8;

/** Where the link of a password-reset mail leads: set a new password, then log in. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const token = usePortalRoute('resetPassword')?.token ?? '';
  const [pass, setPass] = useState('');
  const [repeat, setRepeat] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [state, setState] = useState<'editing' | 'saving' | 'done' | 'invalid'>(token ? 'editing' : 'invalid');

  const passError = submitted && pass.length < MIN_LENGTH ? t('views.login.new_password.too_short') : undefined;
  const repeatError = submitted && repeat !== pass ? t('views.login.new_password.mismatch') : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (pass.length < MIN_LENGTH || repeat !== pass) return;
    setState('saving');
    try {
      await callApi(resetPasswordCall, { body: { token, pass } });
      setState('done');
    } catch (err) {
      setState(err instanceof ApiError && err.status === 400 ? 'invalid' : 'editing');
    }
  };

  return (
    <Paper sx={{ maxWidth: '40rem', mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <PageHeading titleKey="views.login.new_password.title" />
      {state === 'done' || state === 'invalid' ? (
        <>
          <Alert severity={state === 'done' ? 'success' : 'error'} role="status" sx={{ mb: 2 }}>
            {t(state === 'done' ? 'views.login.new_password.done' : 'views.login.new_password.invalid')}
          </Alert>
          <Link href={routeHref({ page: 'login' })}>{t('views.login.new_password.to_login')}</Link>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
          <Stack spacing={2}>
            <PasswordField
              label={t('views.login.new_password.password')}
              value={pass}
              onChange={setPass}
              error={passError}
            />
            <PasswordField
              label={t('views.login.new_password.repeat')}
              value={repeat}
              onChange={setRepeat}
              error={repeatError}
            />
            <Button type="submit" variant="contained" loading={state === 'saving'}>
              {t('views.login.new_password.submit')}
            </Button>
          </Stack>
        </Box>
      )}
    </Paper>
  );
}

function PasswordField(props: { label: string; value: string; onChange: (v: string) => void; error?: string }) {
  return (
    <TextField
      label={props.label}
      type="password"
      autoComplete="new-password"
      required
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={Boolean(props.error)}
      helperText={props.error ?? ' '}
    />
  );
}
