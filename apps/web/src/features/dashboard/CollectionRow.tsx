import { Box, Button, Link, Typography } from '@mui/material';
import { useTranslation } from '../../lib/translate.tsx';
import { Link as RouterLink } from '../../lib/router.tsx';
import type { AssetDoc } from '@vitrine/contract/search';
import { routePath } from '@vitrine/contract/paths';
import type { CollectionContent } from './queries.ts';
import { LoadingBlock } from '../../components/LoadingBlock.tsx';

/** The displayed proportion of an asset; pixel sizes win over width and height (portal-spec §3). */
function aspect(doc: AssetDoc): number {
  const w = doc.pixel_x || doc.width;
  const h = doc.pixel_y || doc.height;
  return w && h ? w / h : 4 / 3;
}

/**
 * One collection as a horizontal row of posters with a 'More results' button (portal-spec §2
 * "Dashboard"); while loading a skeleton holds its place, an empty collection says so.
 */
export function CollectionRow({
  id,
  label,
  content,
  loading,
  height,
  borderWidth,
  searchPath,
  alt,
}: {
  id: string;
  label: string;
  content: CollectionContent | undefined;
  loading: boolean;
  height: number;
  borderWidth: number;
  searchPath: string;
  alt: (doc: AssetDoc) => string;
}) {
  const { t } = useTranslation();
  const headingId = `collection-${id}`;
  return (
    <Box component="section" aria-labelledby={headingId} data-tour="collection" sx={{ mb: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography id={headingId} component="h2" variant="h5" sx={{ flex: 1, minWidth: 0 }}>
          {label}
        </Typography>
        {content && content.numFound > 0 && (
          <Button
            component={RouterLink}
            to={searchPath}
            variant="outlined"
            aria-label={t('views.dashboard.more_results_of', { label })}
          >
            {t('views.dashboard.more_results')}
          </Button>
        )}
      </Box>
      {loading && <LoadingBlock height={height} />}
      {!loading && content?.docs.length === 0 && <Typography>{t('views.dashboard.empty')}</Typography>}
      {!loading && content && content.docs.length > 0 && (
        <Box
          component="ul"
          sx={{ display: 'flex', gap: 1, overflowX: 'auto', listStyle: 'none', m: 0, p: 0, pb: 1 }}
          tabIndex={0}
          aria-label={label}
        >
          {content.docs.map((doc) => (
            <Box component="li" key={doc.id} sx={{ flexShrink: 0 }}>
              <Link
                component={RouterLink}
                to={routePath({ page: 'asset', id: doc.id })}
                sx={{
                  display: 'block',
                  lineHeight: 0,
                  border: borderWidth,
                  borderColor: 'divider',
                  borderStyle: 'solid',
                }}
              >
                {doc.url ? (
                  <Box
                    component="img"
                    src={doc.url}
                    alt={alt(doc)}
                    loading="lazy"
                    sx={{ height, width: Math.round(height * aspect(doc)), objectFit: 'cover', display: 'block' }}
                  />
                ) : (
                  <Box
                    role="img"
                    aria-label={alt(doc)}
                    sx={{ height, width: Math.round(height * aspect(doc)), bgcolor: 'action.hover' }}
                  />
                )}
              </Link>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
