import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import type { GroupEntry, GroupList, GroupRights } from '@vitrine/contract/groups';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { PageLoading } from '../../../components/PageLoading.tsx';
import { ApiError } from '../../../lib/apiClient.ts';
import { toast } from '../../../lib/toast.ts';
import { useTranslation } from '../../../lib/translate.tsx';
import {
  useChangeGroup,
  useCreateGroup,
  useGroupHistory,
  useGroupRollback,
  useGroups,
  useRemoveGroup,
} from './queries.ts';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? (error.body?.message ?? error.message) : error instanceof Error ? error.message : null;

/** The admin's Groups section (issue #50): the groups with their rights, what names each, history. */
export function GroupsSection() {
  const { t } = useTranslation();
  const answer = useGroups();
  const remove = useRemoveGroup();
  const [editing, setEditing] = useState<GroupEntry | 'new' | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  if (answer.isPending) return <PageLoading />;
  if (answer.isError) return <Alert severity="error">{messageOf(answer.error) ?? t('groups.error')}</Alert>;
  const list = answer.data;
  const removeError = messageOf(remove.error);
  return (
    <Stack spacing={2} sx={{ minWidth: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography sx={{ flex: 1 }}>
          {t(list.source === 'admin' ? 'groups.source_admin' : 'groups.source_settings')}
        </Typography>
        <Button variant="contained" onClick={() => setEditing('new')}>
          {t('groups.create')}
        </Button>
      </Stack>
      {removeError && (
        <Alert severity="error" onClose={() => remove.reset()}>
          {removeError}
        </Alert>
      )}
      <GroupsTable list={list} onEdit={setEditing} onRemove={setRemoving} />
      {editing !== null && (
        <GroupDialog list={list} group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        open={removing !== null}
        text={t('groups.remove_question', { name: removing ?? '' })}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const name = removing!;
          setRemoving(null);
          remove.mutate(name, { onSuccess: () => toast.show('groups.removed', 'success', { name }) });
        }}
      />
      <History />
    </Stack>
  );
}

function GroupsTable({
  list,
  onEdit,
  onRemove,
}: {
  list: GroupList;
  onEdit: (group: GroupEntry) => void;
  onRemove: (name: string) => void;
}) {
  const { t } = useTranslation();
  const setTitle = (id: number) => list.conversionSets.find((s) => s.id === id)?.title ?? `#${id}`;
  const yes = (on: boolean) => t(on ? 'people.yes' : 'people.no');
  return (
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }} tabIndex={0} aria-label={t('groups.table')}>
      <Table size="small" aria-label={t('groups.table')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('groups.name')}</TableCell>
            <TableCell>{t('groups.portal_access')}</TableCell>
            <TableCell>{t('groups.admin')}</TableCell>
            <TableCell>{t('groups.download_sets')}</TableCell>
            <TableCell>{t('groups.share_links')}</TableCell>
            <TableCell>{t('groups.editors')}</TableCell>
            <TableCell>{t('groups.fields')}</TableCell>
            <TableCell>{t('groups.named_by')}</TableCell>
            <TableCell>{t('groups.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.groups.map((g) => (
            <TableRow key={g.name}>
              <TableCell>{g.name}</TableCell>
              <TableCell>{yes(g.portalAccess)}</TableCell>
              <TableCell>{yes(g.guiAdmin)}</TableCell>
              <TableCell>{g.downloadSets.map(setTitle).join(', ')}</TableCell>
              <TableCell>{yes(g.shareLinks)}</TableCell>
              <TableCell>{yes(g.editors)}</TableCell>
              <TableCell>{g.fields.join(', ')}</TableCell>
              <TableCell>
                {[
                  t('groups.accounts', { count: g.accounts }),
                  t('groups.assets', { count: g.assets }),
                  ...(g.conversionSets.length
                    ? [t('groups.sets', { sets: g.conversionSets.map(setTitle).join(', ') })]
                    : []),
                  ...(g.settings.length ? [t('groups.settings', { keys: g.settings.join(', ') })] : []),
                ].join('; ')}
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={1}>
                  <Button size="small" aria-label={t('groups.edit_named', { name: g.name })} onClick={() => onEdit(g)}>
                    {t('groups.edit')}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    aria-label={t('groups.remove_named', { name: g.name })}
                    onClick={() => onRemove(g.name)}
                  >
                    {t('groups.remove')}
                  </Button>
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

const noRights: GroupRights = {
  portalAccess: true,
  guiAdmin: false,
  downloadSets: [0],
  shareLinks: false,
  editors: false,
  fields: [],
};

/** A group's name and rights: a new one, or a change of one (only what changed is sent). */
function GroupDialog({ list, group, onClose }: { list: GroupList; group: GroupEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const create = useCreateGroup();
  const change = useChangeGroup();
  const [name, setName] = useState(group?.name ?? '');
  const [rights, setRights] = useState<GroupRights>(group ?? noRights);
  const error = messageOf(create.error ?? change.error);
  const flag = (key: 'portalAccess' | 'guiAdmin' | 'shareLinks' | 'editors') => (
    <FormControlLabel
      control={<Checkbox checked={rights[key]} onChange={(e) => setRights({ ...rights, [key]: e.target.checked })} />}
      label={t(
        `groups.${{ portalAccess: 'portal_access', guiAdmin: 'admin', shareLinks: 'share_links', editors: 'editors' }[key]}`,
      )}
    />
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const done = { onSuccess: () => (toast.show('groups.saved', 'success', { name: name.trim() }), onClose()) };
    if (group === null) {
      create.mutate({ name: name.trim(), ...rights }, done);
      return;
    }
    const body: Record<string, unknown> = {};
    if (name.trim() !== group.name) body.name = name.trim();
    for (const key of Object.keys(noRights) as (keyof GroupRights)[]) {
      if (JSON.stringify(rights[key]) !== JSON.stringify(group[key])) body[key] = rights[key];
    }
    change.mutate({ name: group.name, body }, done);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      slotProps={{ paper: { component: 'form', onSubmit: submit, sx: { maxWidth: 560, width: '100%' } } }}
    >
      <DialogTitle id={titleId}>
        {group ? t('groups.edit_title', { name: group.name }) : t('groups.create_title')}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            autoFocus
            required
            label={t('groups.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
          {flag('portalAccess')}
          {flag('guiAdmin')}
          {flag('shareLinks')}
          {flag('editors')}
          <TextField
            select
            label={t('groups.download_sets')}
            value={rights.downloadSets}
            onChange={(e) =>
              setRights({ ...rights, downloadSets: (e.target.value as unknown as number[]).map(Number) })
            }
            slotProps={{
              select: {
                multiple: true,
                renderValue: (v) =>
                  (v as number[])
                    .map((id) => list.conversionSets.find((s) => s.id === id)?.title ?? `#${id}`)
                    .join(', '),
              },
            }}
          >
            {list.conversionSets.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.title}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('groups.fields')}
            value={rights.fields}
            onChange={(e) => setRights({ ...rights, fields: e.target.value as unknown as string[] })}
            helperText={list.audienceFields.length ? ' ' : t('groups.no_audience_fields')}
            slotProps={{ select: { multiple: true, renderValue: (v) => (v as string[]).join(', ') } }}
          >
            {list.audienceFields.map((f) => (
              <MenuItem key={f} value={f}>
                {f}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('global.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={create.isPending || change.isPending}>
          {t('people.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Saved versions of the groups; restoring one saves it again (as the portal config's history). */
function History() {
  const { t, i18n } = useTranslation();
  const history = useGroupHistory();
  const rollback = useGroupRollback();
  const versions = history.data?.versions ?? [];
  const error = messageOf(rollback.error);
  return (
    <Stack spacing={1}>
      <Typography component="h3" variant="h6">
        {t('admin.history.title')}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {versions.length === 0 && <Typography>{t('admin.history.empty')}</Typography>}
      <List dense aria-label={t('admin.history.title')}>
        {versions.map((v, index) => {
          const when = new Date(v.saved_at).toLocaleString(i18n.language);
          return (
            <ListItem
              key={v.id}
              secondaryAction={
                index > 0 && (
                  <Button
                    size="small"
                    disabled={rollback.isPending}
                    aria-label={`${t('admin.history.restore')}: ${when}`}
                    onClick={() =>
                      rollback.mutate(v.id, { onSuccess: () => toast.show('groups.restored', 'success', { when }) })
                    }
                  >
                    {t('admin.history.restore')}
                  </Button>
                )
              }
            >
              <ListItemText
                primary={`${when} — ${v.groups.join(', ')}`}
                secondary={t(index === 0 ? 'admin.history.current' : 'admin.history.by', { name: v.saved_by })}
              />
            </ListItem>
          );
        })}
      </List>
    </Stack>
  );
}
