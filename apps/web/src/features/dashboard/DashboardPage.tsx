import { PageHeading } from '../../components/PageHeading.tsx';

export function DashboardPage() {
  return <PageHeading titleKey="views.dashboard.title" />;
}
