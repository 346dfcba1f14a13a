import { List, ListItemButton, ListItemText, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { PageHeading } from '../../components/PageHeading.tsx';

/** Admin sections in sidebar order (admin-spec §1). */
export const adminSections = ['appearance', 'dashboard', 'general', 'language', 'search', 'login', 'editor'] as const;
export type AdminSection = (typeof adminSections)[number];

export function AdminPage() {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={2}>
      <nav aria-label={t('views.admin.title')}>
        <List>
          {adminSections.map((section) => (
            <ListItemButton key={section} component={NavLink} to={`/admin/${section}`}>
              <ListItemText primary={t(`views.admin.${section}`)} />
            </ListItemButton>
          ))}
        </List>
      </nav>
      <div>
        <PageHeading titleKey="views.admin.title" />
        <Outlet />
      </div>
    </Stack>
  );
}

export function AdminSectionPage({ section }: { section: AdminSection }) {
  const { t } = useTranslation();
  return <h2>{t(`views.admin.${section}`)}</h2>;
}
