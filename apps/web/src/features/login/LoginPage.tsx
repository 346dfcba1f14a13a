import { PageHeading } from '../../components/PageHeading.tsx';

export function LoginPage() {
  return <PageHeading titleKey="views.login.title" />;
}
