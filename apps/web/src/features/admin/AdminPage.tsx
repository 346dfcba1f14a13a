import { Alert, Box, Button, List, ListItem, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useId, useRef, type ComponentType } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { NavLink, Outlet } from '../../lib/router.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { PageLoading } from '../../components/PageLoading.tsx';
import { useNoticeClearance } from '../../components/ToastHost.tsx';
import { FRONTEND_VERSION } from '@vitrine/contract/version';
import { checkAdminEntry, versionWarning } from '../../stores/session.ts';
import { AdminDraftProvider, useAdminDraft } from './AdminDraft.tsx';
import { useBackendVersion } from './queries.ts';
import { busy } from './status.ts';
import { AppearanceSection } from './sections/AppearanceSection.tsx';
import { DashboardSection } from './sections/DashboardSection.tsx';
import { EditorSection } from './sections/EditorSection.tsx';
import { GeneralSection } from './sections/GeneralSection.tsx';
import { LanguageSection } from './sections/LanguageSection.tsx';
import { LoginSection } from './sections/LoginSection.tsx';
import { SearchSection } from './sections/SearchSection.tsx';

/** Admin sections in sidebar order (admin-spec §1). */
export const adminSections = [
  'appearance',
  'dashboard',
  'general',
  'language',
  'search',
  'login',
  'editor',
  'statistics',
  'people',
  'groups',
] as const;
export type AdminSection = (typeof adminSections)[number];

const sectionViews: Record<AdminSection, ComponentType> = {
  appearance: AppearanceSection,
  dashboard: DashboardSection,
  general: GeneralSection,
  language: LanguageSection,
  search: SearchSection,
  login: LoginSection,
  editor: EditorSection,
  // Its charts are a library of their own: they load on entry to the section, not with the admin area.
  statistics: lazy(() => import('./statistics/StatisticsSection.tsx').then((m) => ({ default: m.StatisticsSection }))),
  // Accounts and groups are seldom visited: their screens load on entry, in a chunk of their own.
  people: lazy(() => import('./people/PeopleSection.tsx').then((m) => ({ default: m.PeopleSection }))),
  groups: lazy(() => import('./people/GroupsSection.tsx').then((m) => ({ default: m.GroupsSection }))),
};

/** Sections that read no config: they show whether or not the config could be loaded. */
const ownSections = new Set<AdminSection>(['statistics', 'people', 'groups']);

/** Sections whose settings live in the global config (the editor saves its pages itself). */
const configSections = new Set<AdminSection>(['appearance', 'dashboard', 'general', 'language', 'search', 'login']);

export function AdminPage() {
  const { t } = useTranslation();
  useEffect(() => void checkAdminEntry(), []);
  return (
    <AdminDraftProvider>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <nav aria-label={t('views.admin.title')}>
          <List>
            {adminSections.map((section) => (
              <ListItem key={section} disablePadding>
                <ListItemButton component={NavLink} to={`/admin/${section}`}>
                  <ListItemText primary={t(`views.admin.${section}`)} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          <Versions />
        </nav>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <PageHeading titleKey="views.admin.title" />
          <Outlet />
        </Box>
      </Stack>
    </AdminDraftProvider>
  );
}

/** The portal's and the server's versions, with the warning when they differ (portal-spec §6). */
function Versions() {
  const { t } = useTranslation();
  const backend = useBackendVersion().data;
  return (
    <Box sx={{ px: 2, maxWidth: 240 }}>
      <Typography variant="caption" component="p" color="text.secondary">
        {t('admin.versions', { frontend: FRONTEND_VERSION, backend: backend ?? '…' })}
      </Typography>
      {versionWarning(backend) && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {t('toast.version.mismatch', { backend, frontend: FRONTEND_VERSION })}
        </Alert>
      )}
    </Box>
  );
}

/** The bar that saves the config draft, with the unsaved-changes notice (admin-spec §2, §8). */
function SaveBar() {
  const { t } = useTranslation();
  const { unsaved, save, status } = useAdminDraft();
  const bar = useRef<HTMLDivElement>(null);
  useNoticeClearance(bar);
  return (
    <Stack
      ref={bar}
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', position: 'sticky', bottom: 0, py: 1, bgcolor: 'background.default', zIndex: 1 }}
    >
      <Button variant="contained" onClick={save} disabled={status === 'saving' || status === 'unavailable'}>
        {t('admin.save')}
      </Button>
      <Box role="status" sx={{ flex: 1 }}>
        {status === 'saving' ? (
          <Typography>{t('admin.status.saving')}</Typography>
        ) : (
          unsaved && <Alert severity="warning">{t('admin.unsaved')}</Alert>
        )}
      </Box>
    </Stack>
  );
}

export function AdminSectionPage({ section }: { section: AdminSection }) {
  const { t } = useTranslation();
  const { status } = useAdminDraft();
  const View = sectionViews[section];
  const headingId = useId();
  const own = ownSections.has(section);
  // A section of the config shows, and tells assistive technology, the config's status (admin-spec §4).
  return (
    <Box
      role="region"
      aria-labelledby={headingId}
      data-status={own ? undefined : status}
      aria-busy={own ? undefined : busy(status)}
    >
      <Typography component="h2" variant="h5" sx={{ mb: 2 }} id={headingId}>
        {t(`views.admin.${section}`)}
      </Typography>
      {own ? (
        <Suspense fallback={<PageLoading />}>
          <View />
        </Suspense>
      ) : status === 'initial' || status === 'loading' ? (
        <PageLoading />
      ) : status === 'unavailable' ? (
        <Alert severity="error">{t('toast.config.error')}</Alert>
      ) : (
        <>
          <View />
          {configSections.has(section) && <SaveBar />}
        </>
      )}
    </Box>
  );
}
