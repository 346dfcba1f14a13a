import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const WEBSITE_TITLE = 'Vitrine';

/**
 * Sets the document title to website title + separator + translated page title and returns the text
 * to announce ('navigated to' + title, portal-spec §2 "Navigation rules").
 */
export function usePageTitle(titleKey: string): string {
  const { t } = useTranslation();
  const [announcement, setAnnouncement] = useState('');
  const pageTitle = t(titleKey);
  useEffect(() => {
    const title = `${WEBSITE_TITLE}${t('global.separator')}${pageTitle}`;
    document.title = title;
    // The announcer waits briefly so screen readers read it after the page content settles.
    const timer = window.setTimeout(() => setAnnouncement(t('global.navigated_to', { title })), 500);
    return () => window.clearTimeout(timer);
  }, [pageTitle, t]);
  return announcement;
}
