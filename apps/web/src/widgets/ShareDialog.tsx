import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Stack,
  TextField,
} from '@mui/material';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { SHARE_PASSWORD_MIN_LENGTH } from '@vitrine/contract/endpoints';
import { useTranslation } from '../lib/translate.tsx';
import { toast } from '../lib/toast.ts';
import { shareUrl, useCreateShare, useShareSettings } from '../stores/shares.ts';

/** Writes a link to the clipboard and says so (portal-spec §8 "Copy share link"). */
export async function copyLink(text: string, all: boolean): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.show(all ? 'toast.share.successAll' : 'toast.share.success', 'success');
  } catch {
    toast.show('toast.share.error', 'info');
  }
}

/** The end of the chosen day in the browser's time zone, as the server wants it. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

/** A day as the date input takes it (yyyy-mm-dd), in the browser's time zone. */
const dayOf = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The last day whose end the server still takes as an expiry: at most `maxDays` from now. */
function lastDay(maxDays: number): string {
  const latest = Date.now() + maxDays * 86_400_000;
  const day = new Date(latest);
  if (Date.parse(endOfDay(dayOf(day))) > latest) day.setDate(day.getDate() - 1);
  return dayOf(day);
}

function ShareForm({ ids, onClose, plainCopy }: { ids: string[]; onClose: () => void; plainCopy: () => void }) {
  const { t } = useTranslation();
  const settings = useShareSettings();
  const create = useCreateShare();
  const [title, setTitle] = useState('');
  const [expires, setExpires] = useState('');
  const [password, setPassword] = useState('');
  const [sets, setSets] = useState<number[]>([]);
  const [link, setLink] = useState<string | null>(null);
  const titleId = useId();
  const today = dayOf(new Date());
  const maxDays = settings.data?.maxDays;
  const tooShort = password.length > 0 && password.length < SHARE_PASSWORD_MIN_LENGTH;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        assetIds: ids,
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(expires ? { expiresAt: endOfDay(expires) } : {}),
        ...(password ? { password } : {}),
        downloadSets: sets,
      },
      { onSuccess: (answer) => setLink(shareUrl(answer.token)) },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('views.share.title')}</DialogTitle>
      {link ? (
        <>
          <DialogContent>
            <Stack spacing={2}>
              <Alert severity="success">{t('views.share.created')}</Alert>
              <TextField
                label={t('views.share.link')}
                value={link}
                autoFocus
                slotProps={{
                  htmlInput: { readOnly: true, onFocus: (e: { target: HTMLInputElement }) => e.target.select() },
                }}
                fullWidth
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('views.share.close')}</Button>
            <Button variant="contained" onClick={() => void copyLink(link, ids.length > 1)}>
              {t('views.share.copy')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <DialogContent>
            <Stack spacing={2}>
              <DialogContentText>{t('views.share.intro', { count: ids.length })}</DialogContentText>
              <TextField label={t('views.share.name')} value={title} onChange={(e) => setTitle(e.target.value)} />
              <TextField
                label={t('views.share.expires', { days: maxDays ?? '' })}
                type="date"
                value={expires}
                onChange={(e) => setExpires(e.target.value)}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { min: today, ...(maxDays ? { max: lastDay(maxDays) } : {}) },
                }}
              />
              <TextField
                label={t('views.share.password')}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={tooShort}
              />
              {(settings.data?.downloadSets.length ?? 0) > 0 && (
                <FormControl component="fieldset">
                  <FormLabel component="legend">{t('views.share.downloads')}</FormLabel>
                  <FormGroup>
                    {settings.data?.downloadSets.map((set) => (
                      <FormControlLabel
                        key={set.id}
                        label={set.title}
                        control={
                          <Checkbox
                            checked={sets.includes(set.id)}
                            onChange={(e) =>
                              setSets((s) => (e.target.checked ? [...s, set.id] : s.filter((id) => id !== set.id)))
                            }
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                  <DialogContentText variant="body2">{t('views.share.view_only')}</DialogContentText>
                </FormControl>
              )}
              {create.isError && (
                <Alert severity="error" role="alert">
                  {t('views.share.error')}
                </Alert>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={plainCopy}>{t('views.share.plain')}</Button>
            <Button onClick={onClose}>{t('global.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={create.isPending || tooShort}>
              {t('views.share.create')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}

/**
 * The share action of the asset, bookmark and search pages: users whose group may create share links
 * get the dialog that makes one; everyone else copies the spec's plain link (portal-spec §2).
 */
export function useShareDialog(): {
  share: (ids: string[], plainCopy: () => void) => void;
  dialog: ReactNode;
  /** Whether `share` opens the dialog (the caller may create links) rather than copying the plain link. */
  canCreate: boolean;
} {
  const settings = useShareSettings();
  const [open, setOpen] = useState<{ ids: string[]; plainCopy: () => void } | null>(null);
  const share = (ids: string[], plainCopy: () => void) => {
    if (settings.data?.mayCreate && ids.length > 0) setOpen({ ids, plainCopy });
    else plainCopy();
  };
  const dialog = open && (
    <ShareForm
      ids={open.ids}
      onClose={() => setOpen(null)}
      plainCopy={() => {
        open.plainCopy();
        setOpen(null);
      }}
    />
  );
  return { share, dialog, canCreate: settings.data?.mayCreate === true };
}
