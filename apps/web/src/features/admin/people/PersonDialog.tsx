import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import type { Person, PersonAnswer } from '@vitrine/contract/people';
import { PageLoading } from '../../../components/PageLoading.tsx';
import { ApiError } from '../../../lib/apiClient.ts';
import { toast } from '../../../lib/toast.ts';
import { useTranslation } from '../../../lib/translate.tsx';
import { fieldErrors, GroupSelect } from './InviteDialog.tsx';
import { GroupChip } from './GroupChip.tsx';
import { usePerson, useRemovePerson, useUpdatePerson } from './queries.ts';

/** One account: its groups given by hand, display name and mail; disable, unblock, send a link, remove. */
export function PersonDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const answer = usePerson(id);
  return (
    <Dialog open={id !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{answer.data ? answer.data.person.name : t('people.person')}</DialogTitle>
      {answer.isPending ? (
        <DialogContent>
          <PageLoading />
        </DialogContent>
      ) : answer.isError ? (
        <>
          <DialogContent>
            <Alert severity="error">
              {answer.error instanceof ApiError ? answer.error.message : t('people.error')}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} autoFocus>
              {t('global.close')}
            </Button>
          </DialogActions>
        </>
      ) : (
        // Keyed by the account: a fresh form for each, filled from its answer.
        <PersonForm key={answer.data.person.id} answer={answer.data} onClose={onClose} />
      )}
    </Dialog>
  );
}

function PersonForm({ answer, onClose }: { answer: PersonAnswer; onClose: () => void }) {
  const { t } = useTranslation();
  const { person, belongings } = answer;
  const update = useUpdatePerson(person.id);
  const remove = useRemovePerson(person.id);
  const [displayName, setDisplayName] = useState(person.displayName ?? '');
  const [email, setEmail] = useState(person.email ?? '');
  const handGroups = person.groups.filter((g) => !g.fromProvider).map((g) => g.name);
  const providerGroups = person.groups.filter((g) => g.fromProvider);
  const [groups, setGroups] = useState(handGroups);
  const [confirming, setConfirming] = useState(false);
  const sso = person.login !== 'native';
  // The server gives a time only while the block lasts.
  const blocked = person.blockedUntil !== null;
  const errors = fieldErrors(update.error);
  const removeError = remove.error instanceof ApiError ? remove.error.message : null;

  const save = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(
      {
        displayName: displayName.trim() || null,
        email: email.trim() || null,
        groups,
      },
      { onSuccess: () => (toast.show('people.saved', 'success', { name: person.name }), onClose()) },
    );
  };

  const act = (
    body: Parameters<typeof update.mutate>[0],
    done: (answer: { person: Person; mailSent?: boolean }) => void,
  ) => update.mutate(body, { onSuccess: done });

  return (
    <>
      <DialogContent>
        <Stack component="form" id={`person-${person.id}`} spacing={1} sx={{ pt: 1 }} onSubmit={save}>
          {(errors.other ?? removeError) && <Alert severity="error">{errors.other ?? removeError}</Alert>}
          <TextField
            autoFocus
            label={t('people.display_name')}
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            error={Boolean(errors.at.displayName)}
            helperText={errors.at.displayName ?? ' '}
            slotProps={{ htmlInput: { maxLength: 256 } }}
          />
          <TextField
            type="email"
            label={t('people.email')}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={Boolean(errors.at.email)}
            helperText={errors.at.email ?? ' '}
            slotProps={{ htmlInput: { maxLength: 320 } }}
          />
          <GroupSelect label={t('people.hand_groups')} value={groups} onChange={setGroups} error={errors.at.groups} />
          {providerGroups.length > 0 && (
            <Stack spacing={0.5}>
              <Typography variant="body2" color="text.secondary">
                {t('people.provider_groups')}
              </Typography>
              <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                {providerGroups.map((g) => (
                  <GroupChip key={g.name} name={g.name} provider={person.login} />
                ))}
              </Stack>
            </Stack>
          )}
        </Stack>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 2 }}>
          <Button
            variant="outlined"
            disabled={update.isPending}
            onClick={() =>
              act({ disabled: !person.disabled }, () =>
                toast.show(person.disabled ? 'people.enabled_done' : 'people.disabled_done', 'success', {
                  name: person.name,
                }),
              )
            }
          >
            {t(person.disabled ? 'people.enable' : 'people.disable')}
          </Button>
          {blocked && (
            <Button
              variant="outlined"
              disabled={update.isPending}
              onClick={() =>
                act({ unblock: true }, () => toast.show('people.unblocked', 'success', { name: person.name }))
              }
            >
              {t('people.unblock')}
            </Button>
          )}
          {!sso && (
            <Button
              variant="outlined"
              disabled={update.isPending || !person.email}
              onClick={() =>
                act({ sendLink: true }, (done) =>
                  done.mailSent === false
                    ? toast.show('people.link_not_sent', 'warning', { name: person.name })
                    : toast.show('people.link_sent', 'success', { email: done.person.email ?? '' }),
                )
              }
            >
              {t(person.invited ? 'people.send_invitation' : 'people.send_reset')}
            </Button>
          )}
          <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
            {t('people.remove')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('global.cancel')}</Button>
        <Button type="submit" form={`person-${person.id}`} variant="contained" disabled={update.isPending}>
          {t('people.save')}
        </Button>
      </DialogActions>
      <RemoveConfirmation
        open={confirming}
        name={person.name}
        bookmarks={belongings.bookmarks}
        shareLinks={belongings.shareLinks}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate(belongings, {
            onSuccess: () => (toast.show('people.removed', 'success', { name: person.name }), onClose()),
          });
        }}
      />
    </>
  );
}

/** The question before a removal, with what goes with the account. */
function RemoveConfirmation(props: {
  open: boolean;
  name: string;
  bookmarks: number;
  shareLinks: number;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Dialog open={props.open} onClose={props.onCancel} aria-labelledby={id} maxWidth="xs">
      <DialogContent>
        <DialogContentText id={id}>
          {t('people.remove_question', { name: props.name })}{' '}
          {t('people.remove_counts', {
            bookmarks: t('people.bookmarks', { count: props.bookmarks }),
            shareLinks: t('people.share_links', { count: props.shareLinks }),
          })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} autoFocus>
          {t('global.cancel')}
        </Button>
        <Button variant="contained" color="error" onClick={props.onConfirm}>
          {t('people.remove')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
