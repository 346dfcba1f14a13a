import { PageHeading } from '../../components/PageHeading.tsx';

export function BookmarkPage() {
  return <PageHeading titleKey="views.bookmark.title" />;
}
