import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/apiClient.ts';
import { toast } from '../../../lib/toast.ts';
import { useTranslation } from '../../../lib/translate.tsx';
import { useGroups, useInvite } from './queries.ts';

type Field = 'name' | 'email' | 'displayName' | 'groups';
const fields: readonly Field[] = ['name', 'email', 'displayName', 'groups'];

/** The server's words for a refused change, put at the field they name; the rest above the form. */
export function fieldErrors(
  error: unknown,
  conflictField?: Field,
): { at: Partial<Record<Field, string>>; other?: string } {
  if (!(error instanceof ApiError))
    return error ? { at: {}, other: String((error as Error).message ?? error) } : { at: {} };
  const at: Partial<Record<Field, string>> = {};
  for (const detail of error.body?.details ?? []) {
    const field = fields.find((f) => detail.path === `body.${f}` || detail.path.startsWith(`body.${f}.`));
    // The service's own message says it best; a schema's names the path, and its detail is the part for people.
    const single = error.body?.details?.length === 1 && !error.body.message.includes(detail.path);
    if (field && !at[field]) at[field] = single ? (error.body?.message ?? detail.message) : detail.message;
  }
  // A conflict names no field in its details: the caller knows which one it is about.
  if (error.status === 409 && conflictField && error.body?.message) at[conflictField] = error.body.message;
  const placed = Object.keys(at).length > 0;
  return placed ? { at } : { at, other: error.body?.message ?? error.message };
}

/** A choice of groups: those the portal knows, and those already chosen. */
export function GroupSelect({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string[];
  onChange: (groups: string[]) => void;
  error?: string;
}) {
  const known = useGroups().data?.groups.map((g) => g.name) ?? [];
  const options = [...new Set([...known, ...value])];
  return (
    <TextField
      select
      fullWidth
      label={label}
      value={value}
      onChange={(e) => onChange(typeof e.target.value === 'string' ? e.target.value.split(',') : e.target.value)}
      error={Boolean(error)}
      helperText={error ?? ' '}
      slotProps={{ select: { multiple: true, renderValue: (v) => (v as string[]).join(', ') } }}
    >
      {options.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** "Invite": a new native account, mailed a link to set its password (issue #50). */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const invite = useInvite();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [groups, setGroups] = useState<string[]>([]);
  const errors = fieldErrors(invite.error, 'name');

  const close = () => {
    invite.reset();
    setName('');
    setEmail('');
    setDisplayName('');
    setGroups([]);
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate(
      {
        name: name.trim(),
        email: email.trim(),
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
        groups,
      },
      {
        onSuccess: (answer) => {
          if (answer.mailSent) toast.show('people.invited', 'success', { email: email.trim() });
          else toast.show('people.invited_no_mail', 'warning', { name: answer.person.name });
          close();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      slotProps={{ paper: { component: 'form', onSubmit: submit, sx: { maxWidth: 500, width: '100%' } } }}
    >
      <DialogTitle id={titleId}>{t('people.invite_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          {errors.other && <Alert severity="error">{errors.other}</Alert>}
          <TextField
            autoFocus
            required
            label={t('people.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(errors.at.name)}
            helperText={errors.at.name ?? ' '}
            slotProps={{ htmlInput: { maxLength: 256, autoComplete: 'off' } }}
          />
          <TextField
            required
            type="email"
            label={t('people.email')}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={Boolean(errors.at.email)}
            helperText={errors.at.email ?? ' '}
            slotProps={{ htmlInput: { maxLength: 320, autoComplete: 'off' } }}
          />
          <TextField
            label={t('people.display_name')}
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            error={Boolean(errors.at.displayName)}
            helperText={errors.at.displayName ?? ' '}
            slotProps={{ htmlInput: { maxLength: 256 } }}
          />
          <GroupSelect label={t('people.groups')} value={groups} onChange={setGroups} error={errors.at.groups} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('global.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={invite.isPending}>
          {t('people.invite_send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
