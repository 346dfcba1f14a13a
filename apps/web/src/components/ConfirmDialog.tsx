import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A question with confirm and cancel (portal-spec §2 "Dialogs": confirmations). */
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
    <Dialog open={open} onClose={onCancel} aria-describedby={id} maxWidth="xs">
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
