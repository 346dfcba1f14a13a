import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { screenWidePicture } from '../../lib/pictures.ts';
import type { GlobalConfig } from '@vitrine/contract/global-config';

const flexAlign = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

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
  const align = flexAlign[hero.alignment];
  const logo = logoUrl && (
    <Box
      component="img"
      src={logoUrl}
      alt={logoAlt}
      sx={{
        height: hero.logo.height,
        maxWidth: '100%',
        objectFit: 'contain',
        alignSelf: flexAlign[hero.logo.alignment],
      }}
    />
  );
  return (
    <>
      {hero.logo.load_outside && logo}
      <Box
        data-testid="dashboard-hero"
        sx={{
          position: 'relative',
          minHeight: hero.height,
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          alignItems: align,
          textAlign: hero.alignment,
          gap: 2,
          px: { xs: 2, sm: 6 },
          py: 4,
          borderRadius: 1,
          overflow: 'hidden',
          color: '#ffffff',
          background: 'linear-gradient(135deg, #262626 0%, #4a4a4a 100%)',
          // Everything but the image sits above it.
          '& > :not(.hero-image)': { position: 'relative' },
        }}
      >
        {heroImageUrl && (
          <Box
            component="img"
            className="hero-image"
            // The largest picture of the dashboard: in the width the screen needs, fetched first.
            // It covers the box, whose height is reserved, so nothing moves when it arrives.
            {...screenWidePicture(heroImageUrl)}
            alt=""
            sx={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              objectFit: 'cover',
              // A dark veil keeps the texts readable on any image.
              filter: 'brightness(0.55)',
            }}
          />
        )}
        {!hero.logo.load_outside && logo}
        <Typography component="p" variant="h3" sx={{ fontWeight: 700, fontSize: { xs: '1.75rem', sm: '2.5rem' } }}>
          {t(hero.trans_header)}
        </Typography>
        <Typography component="p" variant="h6" sx={{ fontWeight: 400 }}>
          {t(hero.trans_body)}
        </Typography>
        {children}
      </Box>
    </>
  );
}
