import { Alert, Box, Typography } from '@mui/material';
import { useTranslation } from '../../lib/translate.tsx';
import { useGlobalConfig } from '../../stores/config.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { PageLoading } from '../../components/PageLoading.tsx';
import { sanitizeHtml } from '../../lib/html.ts';
import { usePublishedPage } from './queries.ts';

/** The portal's /custom page: the admin-written page of the interface language, else the fallback's. */
export function CustomPage() {
  const { t, i18n } = useTranslation();
  const { config } = useGlobalConfig();
  const own = usePublishedPage(i18n.language);
  const fallback = usePublishedPage(config.fallback_locale);
  if (own.isPending || (own.data === null && fallback.isPending)) return <PageLoading />;
  const page = own.data ?? fallback.data ?? null;
  if (!page) {
    return (
      <>
        <PageHeading titleKey="views.custom.title" />
        <Alert severity="info">{t('views.custom.empty')}</Alert>
      </>
    );
  }
  return (
    <article>
      <Typography component="h1" variant="h4" sx={{ mb: 2 }}>
        {page.heading || t('views.custom.title')}
      </Typography>
      <Box
        sx={{ '& img': { maxWidth: '100%' } }}
        // Sanitised on the server and again here, so a page can never run script in the portal.
        dangerouslySetInnerHTML={{ __html: sanitizeHtml(page.html) }}
      />
    </article>
  );
}
