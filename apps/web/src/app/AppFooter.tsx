import { Box, Link, Typography } from '@mui/material';
import { useTranslation } from '../lib/translate.tsx';
import { footerText } from '../lib/footer.ts';
import { Link as RouterLink } from '../lib/router.tsx';
import type { FooterEntry, GlobalConfig } from '@vitrine/contract/global-config';

const columns = ['Left', 'Center', 'Right'] as const;

function FooterItem({ entry, link, title }: { entry: FooterEntry; link: FooterEntry['links'][string]; title: string }) {
  const { t, i18n } = useTranslation();
  const text = footerText(entry, i18n.language, t, title);
  if (!text) return null;
  if (!entry.is_linkable || !link.link) return <Typography variant="body2">{text}</Typography>;
  if (link.linkDirection === 'External') {
    return (
      <Link href={link.link} target="_blank" rel="noopener noreferrer" variant="body2" color="inherit">
        {text}
      </Link>
    );
  }
  return (
    <Link component={RouterLink} to={link.link} variant="body2" color="inherit">
      {text}
    </Link>
  );
}

/**
 * The footer of the config (admin-spec §3 "Footer link"): entries placed per language in a left,
 * centre or right column, internal links as routes, external ones in a new tab.
 */
export function AppFooter({ config }: { config: GlobalConfig }) {
  const { t, i18n } = useTranslation();
  const title = config.global.website_title;
  const entries = [...config.footer.entries]
    .sort((a, b) => a.position - b.position)
    .map((entry) => ({ entry, link: entry.links[i18n.language] ?? entry.links[config.fallback_locale] }))
    .filter((e): e is { entry: FooterEntry; link: FooterEntry['links'][string] } => e.link !== undefined);
  if (entries.every((e) => e.link.column === 'None')) return null;
  return (
    <Box
      component="footer"
      aria-label={t('global.footer.label')}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' },
        gap: 2,
        px: 3,
        py: 2,
        mt: 'auto',
        bgcolor: 'var(--vitrine-navigation)',
        color: 'var(--vitrine-on-navigation)',
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      {columns.map((column) => (
        <Box
          key={column}
          sx={{
            display: 'flex',
            gap: 2,
            flexWrap: 'wrap',
            justifyContent: { xs: 'center', sm: { Left: 'flex-start', Center: 'center', Right: 'flex-end' }[column] },
          }}
        >
          {entries
            .filter((e) => e.link.column === column)
            .map(({ entry, link }) => (
              <FooterItem key={entry.translation + entry.position} entry={entry} link={link} title={title} />
            ))}
        </Box>
      ))}
    </Box>
  );
}
