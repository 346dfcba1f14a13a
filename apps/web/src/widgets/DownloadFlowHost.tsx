import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  FormLabel,
  LinearProgress,
  Link,
  Paper,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import type { ConvertSet } from '@vitrine/contract/session';
import { routeHref } from '@vitrine/contract/paths';
import { useGlobalConfig } from '../stores/config.ts';
import { useMaxAssets } from '../stores/bookmarks.ts';
import { useValueText } from '../stores/fieldText.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import {
  closeDownloadDialog,
  runDownload,
  sendOrder,
  startDownload,
  useDownloadState,
  type DownloadOptions,
  type DownloadProgress,
} from '../stores/downloadFlow.ts';

/** What the download flow reads from the global config. */
export function useDownloadOptions(): DownloadOptions {
  const { config } = useGlobalConfig();
  const maxAssets = useMaxAssets();
  return { orderProcess: config.global.run_order_process, termsShown: config.terms_of_use.show, maxAssets };
}

function SetsDialog({ ids, sets, options }: { ids: string[]; sets: ConvertSet[]; options: DownloadOptions }) {
  const { t, i18n } = useTranslation();
  const { config } = useGlobalConfig();
  const [chosen, setChosen] = useState(String(sets[0]?.id ?? 0));
  const [accepted, setAccepted] = useState(false);
  const labelId = useId();
  const termsLink = config.terms_of_use.links[i18n.language] ?? Object.values(config.terms_of_use.links)[0];
  const canSubmit = !options.termsShown || accepted;
  return (
    <Dialog open onClose={closeDownloadDialog} aria-labelledby={`${labelId}-title`} fullWidth maxWidth="xs">
      <DialogTitle id={`${labelId}-title`}>{t('views.download.title')}</DialogTitle>
      <DialogContent>
        <FormLabel id={labelId}>{t('views.download.set')}</FormLabel>
        <RadioGroup aria-labelledby={labelId} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          {sets.map((s) => (
            <FormControlLabel key={s.id} value={String(s.id)} control={<Radio />} label={s.title} />
          ))}
        </RadioGroup>
        {options.termsShown && (
          <Box sx={{ mt: 1 }}>
            <FormControlLabel
              control={<Checkbox checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />}
              label={t('views.download.terms')}
            />
            {termsLink && (
              <Link href={termsLink} target="_blank" rel="noopener noreferrer" sx={{ display: 'block' }}>
                {t('views.download.terms_link')}
              </Link>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={closeDownloadDialog}>{t('global.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!canSubmit}
          onClick={() => void runDownload(ids, Number(chosen), options)}
        >
          {t('views.download.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function OrderDialog({ ids }: { ids: string[] }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const titleId = useId();
  const submit = async () => {
    setSending(true);
    await sendOrder(ids, message);
    setSending(false);
  };
  return (
    <Dialog open onClose={closeDownloadDialog} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('views.order.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('views.order.intro')}</DialogContentText>
        <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
          {t('views.order.assets')}
        </Typography>
        <Box component="ul" aria-label={t('views.order.assets')} sx={{ mt: 0.5 }}>
          {ids.map((id) => (
            <li key={id}>
              <Link href={routeHref({ page: 'asset', id })}>{id}</Link>
            </li>
          ))}
        </Box>
        <TextField
          label={t('views.order.message')}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          slotProps={{ htmlInput: { maxLength: 5000 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={closeDownloadDialog}>{t('global.cancel')}</Button>
        <Button variant="contained" disabled={sending} onClick={() => void submit()}>
          {t('views.order.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Progress of a running download: real progress when the server sent its length. */
function ProgressPanel({ progress }: { progress: DownloadProgress }) {
  const { t } = useTranslation();
  const valueText = useValueText();
  const percent = progress.total ? Math.round((progress.loaded / progress.total) * 100) : undefined;
  const label =
    percent === undefined
      ? t('views.download.progress_unknown', {
          name: progress.name,
          size: valueText(progress.loaded, 'filesize'),
        })
      : t('views.download.progress', { name: progress.name });
  return (
    <Paper
      elevation={6}
      role="status"
      sx={{
        position: 'fixed',
        bottom: 16,
        left: 16,
        width: 320,
        maxWidth: 'calc(100vw - 32px)',
        p: 2,
        zIndex: (theme) => theme.zIndex.snackbar,
      }}
    >
      <Typography variant="body2" gutterBottom>
        {label}
      </Typography>
      <LinearProgress
        variant={percent === undefined ? 'indeterminate' : 'determinate'}
        value={percent}
        aria-label={label}
      />
    </Paper>
  );
}

/** The dialogs and progress of the download flow; render once where downloads can start. */
export function DownloadFlowHost() {
  const { t } = useTranslation();
  const { dialog, progress } = useDownloadState();
  const options = useDownloadOptions();
  return (
    <>
      {dialog?.kind === 'sets' && <SetsDialog ids={dialog.ids} sets={dialog.sets} options={options} />}
      {dialog?.kind === 'order' && <OrderDialog ids={dialog.ids} />}
      <ConfirmDialog
        open={dialog?.kind === 'confirm'}
        text={t('views.search.modal.download', { 0: dialog?.ids.length ?? 0 })}
        onConfirm={() => dialog && void startDownload(dialog.ids, options, true)}
        onCancel={closeDownloadDialog}
      />
      {progress && <ProgressPanel progress={progress} />}
    </>
  );
}
