import { Box, Button, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { FieldValues } from '@vitrine/contract/edit';
import { useTranslation } from '../../lib/translate.tsx';
import { useEditHistory } from '../../stores/edit.ts';
import { undoWithNotice } from './editNotices.ts';
import { useFieldLabel } from './fieldLabels.ts';

/** Values per content language as one line: "EN: a, b · DE: c"; a dash for none. */
export function valuesText(values: FieldValues | null): string {
  if (!values) return '—';
  const parts = Object.entries(values)
    .filter(([, list]) => list.length > 0)
    .map(([lang, list]) => (lang ? `${lang.toUpperCase()}: ${list.join(', ')}` : list.join(', ')));
  return parts.length > 0 ? parts.join(' · ') : '—';
}

function Entry({ entry }: { entry: NonNullable<ReturnType<typeof useEditHistory>['data']>['entries'][number] }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const headId = useId();
  const fieldLabel = useFieldLabel();
  const { batch } = entry;
  const undone = batch.undoneBy !== null;
  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider' }} aria-labelledby={headId}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={headId} component="h3" variant="subtitle2" sx={{ flex: 1, minWidth: 200 }}>
          {t('edit.history.entry', {
            kind: t(`edit.kind.${batch.kind}`),
            by: batch.by ?? t('edit.someone'),
            at: new Date(batch.at).toLocaleString(i18n.language),
          })}
        </Typography>
        {undone ? (
          <Chip size="small" label={t('edit.history.undone')} />
        ) : (
          <Button size="small" aria-describedby={headId} onClick={() => undoWithNotice(client, batch.id)}>
            {t('edit.undo')}
          </Button>
        )}
      </Stack>
      {entry.changes.length > 0 && (
        <Box
          component="dl"
          sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2 }}
        >
          {entry.changes.map((change, i) => (
            <Box key={`${change.field}-${i}`} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {fieldLabel(change.field)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {t('edit.history.change', { before: valuesText(change.before), after: valuesText(change.after) })}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** The asset's history for editors (latest first), each change with "Undo" or marked as undone. */
export function HistorySection({ id }: { id: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const history = useEditHistory(id);
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} component="h2" variant="h6">
        {t('edit.history.title')}
      </Typography>
      {history.isPending && <CircularProgress size={24} aria-label={t('global.loading')} />}
      {history.isError && <Typography>{t('edit.load_error')}</Typography>}
      {history.data?.entries.length === 0 && <Typography>{t('edit.history.empty')}</Typography>}
      {history.data && history.data.entries.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {history.data.entries.map((entry) => (
            <Entry key={entry.batch.id} entry={entry} />
          ))}
        </Box>
      )}
    </Box>
  );
}
