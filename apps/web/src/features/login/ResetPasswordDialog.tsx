import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { forgotPasswordCall } from '@vitrine/contract/endpoints';
import { callApi } from '../../lib/apiClient.ts';
import { toast } from '../../lib/toast.ts';

/** Asks for a username and has a reset link sent (portal-spec §2 "Login", §5 "Password reset"). */
export function ResetPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [user, setUser] = useState('');
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const valid = user.trim().length > 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || sending) return;
    setSending(true);
    try {
      await callApi(forgotPasswordCall, {
        body: { user: user.trim() },
      });
      toast.show('toast.login.reset_success', 'success');
      setUser('');
      setTouched(false);
      onClose();
    } catch {
      toast.show('toast.login.reset_failed', 'error');
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{
        paper: { component: 'form', onSubmit: (e: FormEvent) => void submit(e), sx: { maxWidth: 500, width: '100%' } },
      }}
    >
      <DialogTitle id={titleId}>{t('views.login.reset.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('views.login.reset.text')}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          required
          label={t('views.login.username')}
          value={user}
          onChange={(e) => setUser(e.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && !valid}
          helperText={touched && !valid ? t('views.login.reset.username_required') : ' '}
          autoComplete="username"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('views.login.reset.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={!valid} loading={sending}>
          {t('views.login.reset.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
