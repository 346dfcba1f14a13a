import { PageHeading } from '../../components/PageHeading.tsx';

export function LogoutPage() {
  return <PageHeading titleKey="views.logout.title" />;
}
