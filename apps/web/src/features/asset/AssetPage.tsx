import { PageHeading } from '../../components/PageHeading.tsx';

export function AssetPage() {
  return <PageHeading titleKey="views.asset.title" />;
}
