import { Alert } from '@mui/material';
import { useTranslation } from '../../lib/translate.tsx';
import { useCurrentShare } from '../../stores/shares.ts';

/** Tells a share link's visitor that the search shows the link's assets, and until when it works. */
export function ShareVisitBanner() {
  const { t, i18n } = useTranslation();
  const share = useCurrentShare();
  if (!share.data) return null;
  const { title, expiresAt } = share.data;
  const date = expiresAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(expiresAt))
    : undefined;
  return (
    <Alert severity="info" role="status">
      {title ? t('views.share_landing.banner', { title }) : t('views.share_landing.banner_untitled')}
      {date ? ` ${t('views.share_landing.banner_expires', { date })}` : ''}
    </Alert>
  );
}
