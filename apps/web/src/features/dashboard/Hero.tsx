import { useLayoutEffect, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { screenWidePicture } from '../../lib/pictures.ts';
import { endFirstPaint } from '../../lib/firstPaint.ts';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { flexAlign } from '@vitrine/contract/config-defaults';
import './dashboard.css';

/**
 * The dashboard's hero (portal-spec §2 "Dashboard"): the hero image (height from the config, default
 * 350) or the theme's colours, an optional logo, the configured header and body texts and the search.
 */
export function Hero({
  hero,
  heroImageUrl,
  logoUrl,
  logoAlt,
  children,
}: {
  hero: GlobalConfig['dashboard']['heroImage'];
  heroImageUrl?: string;
  logoUrl?: string;
  logoAlt: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  // Drawn: the page's first paint of the hero gives way to this one, of the same size and place.
  useLayoutEffect(() => endFirstPaint(), []);
  const align = flexAlign[hero.alignment];
  const logo = logoUrl && (
    <img
      className="vt-hero-logo"
      src={logoUrl}
      alt={logoAlt}
      style={{ height: hero.logo.height, alignSelf: flexAlign[hero.logo.alignment] }}
    />
  );
  // Plain elements with static CSS (dashboard.css); what the config sets goes in style.
  return (
    <>
      {hero.logo.load_outside && logo}
      <div
        className="vt-hero"
        data-testid="dashboard-hero"
        style={{ minHeight: hero.height, alignItems: align, textAlign: hero.alignment }}
      >
        {heroImageUrl && (
          // The largest picture of the dashboard: in the width the screen needs, fetched first.
          // It covers the box, whose height is reserved, so nothing moves when it arrives.
          <img className="hero-image" {...screenWidePicture(heroImageUrl)} alt="" />
        )}
        {!hero.logo.load_outside && logo}
        <p className="vt-hero-title">{t(hero.trans_header)}</p>
        <p className="vt-hero-body">{t(hero.trans_body)}</p>
        {children}
      </div>
    </>
  );
}
