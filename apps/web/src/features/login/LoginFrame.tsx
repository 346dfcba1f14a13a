import { Box, Paper } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { logoVisible, useAvailableFiles, useGlobalConfig } from '../../stores/config.ts';
import { configImageUrl } from '../../lib/pictures.ts';

/**
 * The branded frame of the login and logout screens (admin-spec §3 "login"): the uploaded login
 * background behind a box of the configured width, with the uploaded login logo at its configured
 * height on top when visibleLogos shows it for the screen.
 */
export function LoginFrame({ screen, children }: { screen: 'login' | 'logout'; children: ReactNode }) {
  const { t } = useTranslation();
  const { config } = useGlobalConfig();
  const files = useAvailableFiles();
  const { box, logoImage } = config.login;
  const hero = files.loginHero ? configImageUrl('loginHero') : undefined;
  const logo = files.loginLogo && logoVisible(config, screen) ? configImageUrl('loginLogo') : undefined;
  return (
    <Box
      data-testid="login-background"
      sx={{
        // The background fills the page area, so it reaches past the padding of <main>.
        m: -2,
        p: { xs: 2, sm: 4 },
        minHeight: '100%',
        backgroundImage: hero ? `url("${hero}")` : undefined,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }}
    >
      <Paper sx={{ maxWidth: box.max_width, mx: 'auto', p: { xs: 2, sm: 4 } }}>
        {logo && (
          <Box
            component="img"
            src={logo}
            alt={t('global.logo', { title: config.global.website_title })}
            sx={{
              display: 'block',
              height: logoImage.height,
              maxWidth: '100%',
              objectFit: 'contain',
              mx: 'auto',
              mb: 2,
            }}
          />
        )}
        {children}
      </Paper>
    </Box>
  );
}
