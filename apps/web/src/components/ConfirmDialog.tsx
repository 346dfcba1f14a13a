import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from '../lib/translate.tsx';

/**
 * A question with confirm and cancel (portal-spec §2 "Dialogs": confirmations). It has no title, so
 * the question names the dialog for screen readers.
 */
export function ConfirmDialog({
  open,
  text,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  text: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={id} maxWidth="xs">
      <DialogContent>
        <DialogContentText id={id}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('global.cancel')}</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          {t('global.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
