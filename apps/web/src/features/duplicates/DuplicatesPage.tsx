import { Box, Button, Card, CircularProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { DuplicateGroup, DuplicateMember } from '@vitrine/contract/alike';
import { formatFileSize } from '@vitrine/contract/field-format';
import { routePath } from '@vitrine/contract/paths';
import { useTranslation } from '../../lib/translate.tsx';
import { Link as RouterLink, Navigate } from '../../lib/router.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { useSession } from '../../stores/session.ts';
import { binWithNotice } from '../../widgets/edit/editNotices.ts';
import { useDuplicates } from './queries.ts';

/** Groups of the report per page. */
export const DUPLICATE_ROWS = 20;

const nameOf = (m: DuplicateMember) => m.title ?? m.filename ?? `#${m.id}`;

function Fact({ term, children }: { term: string; children: string }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

function Member({ member, onBin }: { member: DuplicateMember; onBin: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const name = nameOf(member);
  const date = (iso: string | undefined) => (iso ? new Date(iso).toLocaleDateString(lang) : undefined);
  const facts: [string, string | undefined][] = [
    [t('alike.duplicates.format'), member.format?.toUpperCase()],
    [
      t('alike.duplicates.pixels'),
      member.width && member.height ? t('alike.duplicates.pixel_size', member) : undefined,
    ],
    [
      t('alike.duplicates.file_size'),
      member.fileSize === undefined ? undefined : formatFileSize(member.fileSize, lang),
    ],
    [t('alike.duplicates.created'), date(member.created)],
    [t('alike.duplicates.added'), date(member.added)],
    [t('alike.duplicates.collections'), member.collections.map((c) => c.name).join(', ') || undefined],
  ];
  return (
    <Card component="li" variant="outlined" sx={{ width: 240, p: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
      {member.thumbnail ? (
        <Box
          component="img"
          src={member.thumbnail}
          alt=""
          loading="lazy"
          decoding="async"
          sx={{ width: '100%', height: 150, objectFit: 'contain', bgcolor: 'action.hover', display: 'block' }}
        />
      ) : (
        <Box sx={{ width: '100%', height: 150, bgcolor: 'action.hover' }} />
      )}
      <Typography
        component={RouterLink}
        to={routePath({ page: 'asset', id: member.id })}
        sx={{ overflowWrap: 'anywhere', color: 'inherit', fontWeight: 500 }}
      >
        {name}
      </Typography>
      {member.title && member.filename && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {member.filename}
        </Typography>
      )}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1, rowGap: 0.25, m: 0 }}>
        {facts.map(
          ([term, value]) =>
            value && (
              <Fact key={term} term={term}>
                {value}
              </Fact>
            ),
        )}
      </Box>
      <Box sx={{ mt: 'auto' }}>
        <Button size="small" color="error" aria-label={t('alike.duplicates.bin_one', { name })} onClick={onBin}>
          {t('edit.bin.move')}
        </Button>
      </Box>
    </Card>
  );
}

function Group({ group, onBin }: { group: DuplicateGroup; onBin: (id: string) => void }) {
  const { t } = useTranslation();
  const heading = useId();
  return (
    <Box component="section" aria-labelledby={heading} sx={{ my: 3 }}>
      <Typography id={heading} component="h2" variant="h6" sx={{ mb: 1 }}>
        {t(group.kind === 'exact' ? 'alike.duplicates.exact' : 'alike.duplicates.near', {
          count: group.members.length,
        })}
      </Typography>
      <Stack component="ul" direction="row" sx={{ flexWrap: 'wrap', gap: 2, listStyle: 'none', p: 0, m: 0 }}>
        {group.members.map((m) => (
          <Member key={m.id} member={m} onBin={() => onBin(m.id)} />
        ))}
      </Stack>
    </Box>
  );
}

function DuplicateList() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [start, setStart] = useState(0);
  const report = useDuplicates(start, DUPLICATE_ROWS);
  if (report.isPending) return <CircularProgress aria-label={t('global.loading')} />;
  if (report.isError) return <Typography>{t('edit.load_error')}</Typography>;
  const { total, groups } = report.data;
  if (total === 0) return <Typography>{t('alike.duplicates.none')}</Typography>;
  return (
    <>
      <Typography role="status" sx={{ my: 2 }}>
        {t('alike.duplicates.count', { count: total })}
      </Typography>
      {groups.map((g) => (
        <Group
          key={`${g.kind} ${g.members.map((m) => m.id).join(' ')}`}
          group={g}
          onBin={(id) => void binWithNotice(client, [id])}
        />
      ))}
      {total > DUPLICATE_ROWS && (
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button disabled={start === 0} onClick={() => setStart(Math.max(0, start - DUPLICATE_ROWS))}>
            {t('edit.bin.previous')}
          </Button>
          <Button disabled={start + DUPLICATE_ROWS >= total} onClick={() => setStart(start + DUPLICATE_ROWS)}>
            {t('edit.bin.next')}
          </Button>
        </Stack>
      )}
    </>
  );
}

/**
 * The duplicates report (issue #52): the same file imported twice, and near copies (re-encoded,
 * resized, recompressed), side by side with what tells them apart, so that an editor keeps one and
 * moves the others to the bin.
 */
export function DuplicatesPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  if (session?.isEditor !== true) return <Navigate to={routePath({ page: 'dashboard' })} replace />;
  return (
    <Box>
      <PageHeading titleKey="alike.duplicates.title" />
      <Typography color="text.secondary">{t('alike.duplicates.intro')}</Typography>
      <DuplicateList />
    </Box>
  );
}
