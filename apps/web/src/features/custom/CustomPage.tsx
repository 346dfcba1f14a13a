import { PageHeading } from '../../components/PageHeading.tsx';

export function CustomPage() {
  return <PageHeading titleKey="views.custom.title" />;
}
