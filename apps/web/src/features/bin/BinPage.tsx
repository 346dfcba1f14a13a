import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { routePath } from '@vitrine/contract/paths';
import { useTranslation } from '../../lib/translate.tsx';
import { Navigate } from '../../lib/router.tsx';
import { toast } from '../../lib/toast.ts';
import { ApiError } from '../../lib/apiClient.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { VISUALLY_HIDDEN } from '../../components/visuallyHidden.ts';
import { useSession } from '../../stores/session.ts';
import { allBinnedIds, refreshAfterEdit, removeAssets, useBinList, useEditOptions } from '../../stores/edit.ts';
import { restoreWithNotice } from '../../widgets/edit/editNotices.ts';

/** Rows of the bin per page. */
export const BIN_ROWS = 50;

function BinList() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [start, setStart] = useState(0);
  const bin = useBinList(start, BIN_ROWS);
  const options = useEditOptions();
  const [selected, setSelected] = useState<string[]>([]);
  const [removing, setRemoving] = useState<string[] | null>(null);
  const assets = bin.data?.assets ?? [];
  const total = bin.data?.total ?? 0;
  const allChosen = assets.length > 0 && assets.every((a) => selected.includes(a.id));
  const [selectingAll, setSelectingAll] = useState(false);
  // The page's box adds or takes this page's assets; what was chosen on other pages stays chosen.
  const choosePage = (on: boolean) => {
    const page = assets.map((a) => a.id);
    setSelected((s) => (on ? [...s, ...page.filter((id) => !s.includes(id))] : s.filter((id) => !page.includes(id))));
  };
  const chooseAll = () => {
    setSelectingAll(true);
    allBinnedIds()
      .then(setSelected)
      .catch((error: unknown) =>
        toast.show('edit.error', 'error', undefined, error instanceof ApiError ? error.message : undefined),
      )
      .finally(() => setSelectingAll(false));
  };

  const restore = (ids: string[]) =>
    void restoreWithNotice(client, ids).then(() => setSelected((s) => s.filter((id) => !ids.includes(id))));
  const remove = (ids: string[]) => {
    setRemoving(null);
    removeAssets(ids)
      .then((answer) => {
        refreshAfterEdit(client);
        setSelected((s) => s.filter((id) => !ids.includes(id)));
        toast.show('edit.bin.removed', 'success', { count: answer.removed }, undefined, true);
      })
      .catch((error: unknown) =>
        toast.show('edit.error', 'error', undefined, error instanceof ApiError ? error.message : undefined),
      );
  };

  if (bin.isPending) return <CircularProgress aria-label={t('global.loading')} />;
  if (bin.isError) return <Typography>{t('edit.load_error')}</Typography>;
  if (total === 0) return <Typography>{t('edit.bin.empty')}</Typography>;

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ my: 2, flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
        <Typography role="status" sx={{ flex: 1 }}>
          {t('edit.bin.count', { count: total })}
        </Typography>
        {allChosen && selected.length < total && (
          <Button disabled={selectingAll} onClick={chooseAll}>
            {t('edit.bin.select_everything', { count: total })}
          </Button>
        )}
        {selected.length > 0 && <Button onClick={() => setSelected([])}>{t('edit.bin.select_none')}</Button>}
        <Button variant="outlined" disabled={selected.length === 0} onClick={() => restore(selected)}>
          {t('edit.bin.restore_selected', { count: selected.length })}
        </Button>
        {options.data?.canRemove && (
          <Button
            variant="outlined"
            color="error"
            disabled={selected.length === 0}
            onClick={() => setRemoving(selected)}
          >
            {t('edit.bin.remove_selected', { count: selected.length })}
          </Button>
        )}
      </Stack>
      <TableContainer>
        <Table size="small" aria-label={t('edit.bin.title')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allChosen}
                  indeterminate={!allChosen && assets.some((a) => selected.includes(a.id))}
                  onChange={(e) => choosePage(e.target.checked)}
                  slotProps={{ input: { 'aria-label': t('edit.bin.select_all') } }}
                />
              </TableCell>
              <TableCell>{t('edit.bin.asset')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('edit.bin.binned')}</TableCell>
              <TableCell>
                <span className={VISUALLY_HIDDEN}>{t('edit.bin.actions')}</span>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {assets.map((asset) => {
              const name = asset.title || asset.filename;
              return (
                <TableRow key={asset.id}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.includes(asset.id)}
                      onChange={(e) =>
                        setSelected((s) => (e.target.checked ? [...s, asset.id] : s.filter((id) => id !== asset.id)))
                      }
                      slotProps={{ input: { 'aria-label': t('edit.bin.select', { name }) } }}
                    />
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {name}
                    {asset.title && (
                      <Typography variant="body2" color="text.secondary">
                        {asset.filename}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    {t('edit.bin.binned_by', {
                      by: asset.binnedBy ?? t('edit.someone'),
                      at: asset.binnedAt ? new Date(asset.binnedAt).toLocaleString(i18n.language) : '',
                    })}
                  </TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      aria-label={t('edit.bin.restore_one', { name })}
                      onClick={() => restore([asset.id])}
                    >
                      {t('edit.bin.restore')}
                    </Button>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {total > BIN_ROWS && (
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button disabled={start === 0} onClick={() => setStart(Math.max(0, start - BIN_ROWS))}>
            {t('edit.bin.previous')}
          </Button>
          <Button disabled={start + BIN_ROWS >= total} onClick={() => setStart(start + BIN_ROWS)}>
            {t('edit.bin.next')}
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        open={removing !== null}
        text={t('edit.bin.remove_confirm', { count: removing?.length ?? 0 })}
        onConfirm={() => removing && remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}

/** The bin (issue #49): what editors moved there, to restore, and for admins to remove for good. */
export function BinPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session?.isEditor !== true) return <Navigate to={routePath({ page: 'dashboard' })} replace />;
  return (
    <Box>
      <PageHeading titleKey="edit.bin.title" />
      <Typography color="text.secondary">{t('edit.bin.intro')}</Typography>
      <BinList />
    </Box>
  );
}
