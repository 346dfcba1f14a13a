import { useEffect, useState } from 'react';
import { configFontCall, configStyleCall } from '@vitrine/contract/endpoints';
import { pageOf } from '@vitrine/contract/paths';
import { callUrl } from '../lib/apiClient.ts';
import { configImageUrl } from '../lib/pictures.ts';
import { toast } from '../lib/toast.ts';
import { useAvailableFiles } from './config.ts';
import { CUSTOM_FONT_FAMILY } from '../lib/theme.ts';

/** Loads the admin's custom font when one is uploaded; true once it can be used. */
export function useCustomFont(): boolean {
  const files = useAvailableFiles();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!files.custom_font || typeof FontFace === 'undefined') return;
    let cancelled = false;
    const face = new FontFace(CUSTOM_FONT_FAMILY, `url("${callUrl(configFontCall)}")`);
    face.load().then(
      (f) => {
        if (cancelled) return;
        document.fonts.add(f);
        setLoaded(true);
      },
      () => toast.show('toast.font.error', 'error'),
    );
    return () => {
      cancelled = true;
    };
  }, [files.custom_font]);
  return loaded;
}

/**
 * The screens where a password is typed (login, setting a new password, a share link's password).
 * An admin's style sheet is not loaded there: its attribute selectors could read what is typed.
 */
const passwordScreens: readonly (string | undefined)[] = ['login', 'resetPassword', 'share'];

export function customStyleAllowed(pathname: string): boolean {
  return !passwordScreens.includes(pageOf(pathname));
}

/**
 * Adds the admin's favicon, and their style sheet except on the password screens (removed on the
 * way to one), when they are uploaded.
 */
export function useCustomStyleAndFavicon(pathname: string): void {
  const files = useAvailableFiles();
  const styled = files.style && customStyleAllowed(pathname);
  useEffect(() => {
    if (!styled) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = callUrl(configStyleCall);
    link.dataset.vitrine = 'custom-style';
    link.addEventListener('error', () => toast.show('toast.style.error', 'error'));
    document.head.appendChild(link);
    return () => link.remove();
  }, [styled]);
  useEffect(() => {
    if (!files.favicon) return;
    // The product's own icon (index.html) steps aside: with two icons a browser may keep showing it.
    const own = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')];
    for (const l of own) l.remove();
    const link = document.createElement('link');
    link.rel = 'icon';
    link.href = configImageUrl('favicon');
    document.head.appendChild(link);
    return () => {
      link.remove();
      document.head.append(...own);
    };
  }, [files.favicon]);
}
