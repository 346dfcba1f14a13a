import {
  Box,
  Button,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { ShareLink } from '@vitrine/contract/share';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { visuallyHidden } from '../../components/visuallyHidden.ts';
import { toast } from '../../lib/toast.ts';
import { useMyShares, useRevokeShare } from '../../stores/shares.ts';

/** "My shares": the caller's share links with their counts and expiry, each revocable until it is revoked or expired. */
export function MySharesPage() {
  const { t, i18n } = useTranslation();
  const shares = useMyShares();
  const revoke = useRevokeShare();
  const [asking, setAsking] = useState<ShareLink | null>(null);
  const date = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso))
      : t('views.shares.never');
  const nameOf = (s: ShareLink) => s.title || t('views.shares.untitled');
  const list = shares.data?.shares ?? [];

  return (
    <Box>
      <PageHeading titleKey="views.shares.title" />
      {shares.isPending ? (
        <Typography role="status">{t('global.loading')}</Typography>
      ) : list.length === 0 ? (
        <Typography>{t('views.shares.empty')}</Typography>
      ) : (
        // A narrow screen scrolls the table, not the page: positioned, so the visually hidden column
        // heading (absolutely placed) is kept inside it too.
        <TableContainer sx={{ position: 'relative' }}>
          <Table aria-label={t('views.shares.list')} size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('views.shares.name')}</TableCell>
                <TableCell align="right">{t('views.shares.assets')}</TableCell>
                <TableCell>{t('views.shares.created')}</TableCell>
                <TableCell>{t('views.shares.expires')}</TableCell>
                <TableCell>{t('views.shares.state')}</TableCell>
                <TableCell align="right">{t('views.shares.views')}</TableCell>
                <TableCell align="right">{t('views.shares.downloads')}</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    {t('views.shares.revoke')}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((s) => (
                <TableRow key={s.id}>
                  <TableCell component="th" scope="row">
                    {nameOf(s)}
                    {s.hasPassword && ` (${t('views.shares.password')})`}
                  </TableCell>
                  <TableCell align="right">{s.assetIds.length}</TableCell>
                  <TableCell>{date(s.createdAt)}</TableCell>
                  <TableCell>{date(s.expiresAt)}</TableCell>
                  <TableCell>{t(`views.shares.states.${s.state}`)}</TableCell>
                  <TableCell align="right">{s.views}</TableCell>
                  <TableCell align="right">{s.downloads}</TableCell>
                  <TableCell>
                    {(s.state === 'active' || s.state === 'inactive') && (
                      <Button
                        size="small"
                        color="error"
                        aria-label={t('views.shares.revoke_named', { name: nameOf(s) })}
                        onClick={() => setAsking(s)}
                      >
                        {t('views.shares.revoke')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={asking !== null}
        text={t('views.shares.revoke_confirm')}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) {
            revoke.mutate(asking.id, {
              onSuccess: () => toast.show('views.shares.revoked', 'success'),
              onError: () => toast.show('toast.download.error', 'error'),
            });
          }
          setAsking(null);
        }}
      />
    </Box>
  );
}
