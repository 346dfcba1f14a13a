import { PageHeading } from '../../components/PageHeading.tsx';

export function SearchPage() {
  return <PageHeading titleKey="views.search.title" />;
}
