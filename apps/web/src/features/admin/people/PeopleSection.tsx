import {
  Alert,
  Box,
  Button,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { routePath } from '@vitrine/contract/paths';
import type { Person } from '@vitrine/contract/people';
import { PageLoading } from '../../../components/PageLoading.tsx';
import { ApiError } from '../../../lib/apiClient.ts';
import { useNavigate, useSearchParams } from '../../../lib/router.tsx';
import { useTranslation } from '../../../lib/translate.tsx';
import type { TFunction } from '../../../lib/translator.ts';
import { GroupChip, providerOf } from './GroupChip.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { PersonDialog } from './PersonDialog.tsx';
import { useGroups, usePeople, type PeopleQuery } from './queries.ts';

/** Rows of a page (the server allows up to 100). */
export const PEOPLE_PAGE = 50;
/** Typing pauses this long before the list asks again: one request per word, not per key. */
const SEARCH_DELAY_MS = 300;

type YesNo = '' | 'true' | 'false';

interface Filters {
  q: string;
  group: string;
  blocked: YesNo;
  disabled: YesNo;
  login: string;
}

/**
 * What the address asks for (`?q=ada&group=staff&blocked=true&page=2`), so a reload or a link sent
 * to another admin shows the same list.
 */
interface View {
  filters: Filters;
  offset: number;
}

function readView(params: URLSearchParams): View {
  const yesNo = (value: string | null): YesNo => (value === 'true' || value === 'false' ? value : '');
  const page = Number(params.get('page'));
  return {
    filters: {
      q: params.get('q') ?? '',
      group: params.get('group') ?? '',
      blocked: yesNo(params.get('blocked')),
      disabled: yesNo(params.get('disabled')),
      login: params.get('login') ?? '',
    },
    offset: Number.isSafeInteger(page) && page > 1 ? (page - 1) * PEOPLE_PAGE : 0,
  };
}

function writeView({ filters, offset }: View): string {
  const pairs = Object.entries(filters).filter(([, value]) => value !== '');
  if (offset > 0) pairs.push(['page', String(Math.floor(offset / PEOPLE_PAGE) + 1)]);
  const query = new URLSearchParams(pairs).toString();
  return `${routePath({ page: 'admin', section: 'people' })}${query ? `?${query}` : ''}`;
}

function queryOf(filters: Filters, offset: number): PeopleQuery {
  return {
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
    ...(filters.group ? { group: filters.group } : {}),
    ...(filters.blocked ? { blocked: filters.blocked } : {}),
    ...(filters.disabled ? { disabled: filters.disabled } : {}),
    ...(filters.login ? { login: filters.login } : {}),
    offset,
    limit: PEOPLE_PAGE,
  };
}

/** The admin's People section (issue #50): accounts searched, filtered and paged. */
export function PeopleSection() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { filters, offset } = readView(params);
  const show = (view: View) => void navigate(writeView(view), { replace: true });
  const [typed, setTyped] = useState(filters.q);
  /** The search text this section last put in the address, so only another's change resets the box. */
  const written = useRef(filters.q);
  const answer = usePeople(queryOf(filters, offset));
  const [inviting, setInviting] = useState(false);
  const [opened, setOpened] = useState<number | null>(null);

  useEffect(() => {
    if (filters.q === written.current) return;
    written.current = filters.q;
    setTyped(filters.q);
  }, [filters.q]);

  useEffect(() => {
    const shown = readView(params).filters;
    if (typed === shown.q) return;
    const timer = setTimeout(() => {
      written.current = typed;
      void navigate(writeView({ filters: { ...shown, q: typed }, offset: 0 }), { replace: true });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, params, navigate]);

  const filter = (key: Exclude<keyof Filters, 'q'>) => (value: string) =>
    show({ filters: { ...filters, [key]: value }, offset: 0 });
  const setOffset = (next: number) => show({ filters, offset: next });

  return (
    <Stack spacing={2} sx={{ minWidth: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          type="search"
          label={t('people.search')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          sx={{ flex: 1 }}
        />
        <Button variant="contained" onClick={() => setInviting(true)}>
          {t('people.invite')}
        </Button>
      </Stack>
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <PersonDialog id={opened} onClose={() => setOpened(null)} />
      <FilterBar filters={filters} onFilter={filter} people={answer.data?.people ?? []} />
      {answer.isPending ? (
        <PageLoading />
      ) : answer.isError ? (
        <Alert severity="error">
          {t('people.error')}
          {answer.error instanceof ApiError && answer.error.body?.message ? ` ${answer.error.body.message}` : ''}
        </Alert>
      ) : (
        <>
          {answer.isFetching && <LinearProgress aria-label={t('people.loading')} />}
          {answer.data.people.length === 0 ? (
            <Alert severity="info">{t('people.none')}</Alert>
          ) : (
            <PeopleTable people={answer.data.people} onOpen={setOpened} />
          )}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PEOPLE_PAGE))}>
              {t('people.previous')}
            </Button>
            <Box role="status" sx={{ flex: 1, textAlign: 'center' }}>
              {answer.data.people.length > 0 &&
                t('people.rows', { from: offset + 1, to: offset + answer.data.people.length })}
            </Box>
            <Button disabled={!answer.data.more} onClick={() => setOffset(offset + PEOPLE_PAGE)}>
              {t('people.next')}
            </Button>
          </Stack>
        </>
      )}
    </Stack>
  );
}

function FilterBar({
  filters,
  onFilter,
  people,
}: {
  filters: Filters;
  onFilter: (key: Exclude<keyof Filters, 'q'>) => (value: string) => void;
  people: Person[];
}) {
  const { t } = useTranslation();
  const groups = useGroups().data?.groups.map((g) => g.name) ?? [];
  // No list of the providers is asked for: those of the rows shown, and the one chosen, are offered.
  const logins = [...new Set(['native', ...people.map((p) => p.login), ...(filters.login ? [filters.login] : [])])];
  const yesNo = (key: 'blocked' | 'disabled') => (
    <TextField
      select
      size="small"
      label={t(`people.filter_${key}`)}
      value={filters[key]}
      onChange={(e) => onFilter(key)(e.target.value)}
      sx={{ minWidth: 140 }}
    >
      <MenuItem value="">{t('people.any')}</MenuItem>
      <MenuItem value="true">{t('people.yes')}</MenuItem>
      <MenuItem value="false">{t('people.no')}</MenuItem>
    </TextField>
  );
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={t('people.filter_group')}
        value={filters.group}
        onChange={(e) => onFilter('group')(e.target.value)}
        sx={{ minWidth: 160 }}
      >
        <MenuItem value="">{t('people.any')}</MenuItem>
        {[...new Set([...groups, ...(filters.group ? [filters.group] : [])])].map((name) => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      {yesNo('blocked')}
      {yesNo('disabled')}
      <TextField
        select
        size="small"
        label={t('people.filter_login')}
        value={filters.login}
        onChange={(e) => onFilter('login')(e.target.value)}
        sx={{ minWidth: 160 }}
      >
        <MenuItem value="">{t('people.any')}</MenuItem>
        {logins.map((login) => (
          <MenuItem key={login} value={login}>
            {login === 'native' ? t('people.login_native') : login}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

function PeopleTable({ people, onOpen }: { people: Person[]; onOpen: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    // At 375 px the table scrolls in its own box, the page does not.
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }} tabIndex={0} aria-label={t('people.table')}>
      <Table size="small" aria-label={t('people.table')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('people.name')}</TableCell>
            <TableCell>{t('people.display_name')}</TableCell>
            <TableCell>{t('people.email')}</TableCell>
            <TableCell>{t('people.groups')}</TableCell>
            <TableCell>{t('people.login')}</TableCell>
            <TableCell>{t('people.last_login')}</TableCell>
            <TableCell>{t('people.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {people.map((person) => (
            <TableRow key={person.id}>
              <TableCell>
                <Button size="small" onClick={() => onOpen(person.id)} sx={{ textTransform: 'none', minWidth: 0 }}>
                  {person.name}
                </Button>
              </TableCell>
              <TableCell>{person.displayName ?? ''}</TableCell>
              <TableCell>{person.email ?? ''}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                  {person.groups.map((group) => (
                    <GroupChip key={group.name} name={group.name} provider={group.fromProvider ? person.login : null} />
                  ))}
                </Stack>
              </TableCell>
              <TableCell>{person.login === 'native' ? t('people.login_native') : providerOf(person.login)}</TableCell>
              <TableCell>{person.lastLogin === null ? t('people.never') : when.format(person.lastLogin)}</TableCell>
              <TableCell>{statusOf(person, t, when)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function statusOf(person: Person, t: TFunction, when: Intl.DateTimeFormat) {
  const parts: string[] = [];
  if (person.disabled) parts.push(t('people.status_disabled'));
  if (person.blockedUntil !== null) parts.push(t('people.status_blocked', { until: when.format(person.blockedUntil) }));
  if (person.invited) parts.push(t('people.status_invited'));
  return parts.length ? parts.join(', ') : t('people.status_active');
}
