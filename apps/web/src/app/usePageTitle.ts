import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/translate.tsx';

/** The announcer waits so screen readers read it after the page content settles (portal-spec §9). */
const ANNOUNCER_DELAY_MS = 500;

/**
 * Sets the document title to website title + separator + translated page title and returns the text
 * to announce ('navigated to' + title, portal-spec §2 "Navigation rules").
 */
export function usePageTitle(titleKey: string, websiteTitle: string): string {
  const { t } = useTranslation();
  const [announcement, setAnnouncement] = useState('');
  const pageTitle = t(titleKey);
  useEffect(() => {
    const title = `${websiteTitle}${t('global.separator')}${pageTitle}`;
    document.title = title;
    const timer = window.setTimeout(() => setAnnouncement(t('global.navigated_to', { title })), ANNOUNCER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [pageTitle, websiteTitle, t]);
  return announcement;
}
