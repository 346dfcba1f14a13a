import { Component, lazy, type ReactNode } from 'react';
import { routePath } from '@vitrine/contract/paths';
import { Navigate } from '../lib/router.tsx';
import { ScreenLoadError } from '../components/ScreenLoadError.tsx';
import { useSession } from '../stores/session.ts';
import { screens } from './screens.ts';

/*
 * The upload page is for editors (issue #49), and so is its code with the upload library: unlike the
 * other screens it is not the router's `lazy` (which loads before the navigation guard has decided
 * and keeps what it loaded), but a component that loads once an editor's session renders it.
 */
const UploadPage = lazy(() => screens.upload().then((Page) => ({ default: Page })));

/** In place of the upload page when its code could not be loaded. */
class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ScreenLoadError /> : this.props.children;
  }
}

/**
 * The upload route: the page for an editor. The navigation guard sends everyone else away before
 * this is drawn (stores/session.ts guardTarget); a session that loses the right here goes home.
 */
export function UploadRoute() {
  const { session } = useSession();
  if (!session?.isEditor) return <Navigate to={routePath({ page: 'dashboard' })} replace />;
  return (
    <LoadFailure>
      <UploadPage />
    </LoadFailure>
  );
}
