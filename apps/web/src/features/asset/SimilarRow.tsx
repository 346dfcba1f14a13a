import { Box, Typography } from '@mui/material';
import { useDeferredValue, useId } from 'react';
import { routePath } from '@vitrine/contract/paths';
import type { AssetDoc } from '@vitrine/contract/search';
import { useTranslation } from '../../lib/translate.tsx';
import { Link as RouterLink } from '../../lib/router.tsx';
import { thumbPicture } from '../../lib/pictures.ts';
import { useNearViewport } from '../../lib/useNearViewport.ts';
import { useSimilar } from './queries.ts';

/** The posters' width in px. */
const POSTER = 120;

/**
 * Up to twelve assets that look like the asset (issue #52), each a poster linking to its page. Asked
 * only once the page is drawn and the row's place is near the screen, and drawn only when there are
 * some: it sits below everything else on the page, so when it appears nothing above it moves, and
 * no space is kept for it before.
 */
export function SimilarRow({ id, lang, titleOf }: { id: string; lang: string; titleOf: (doc: AssetDoc) => string }) {
  const { t } = useTranslation();
  const heading = useId();
  // A render of its own after the page's (as the metadata's), so the first paint never waits for it.
  const drawn = useDeferredValue(true, false);
  const { ref, near } = useNearViewport('300px');
  const similar = useSimilar(lang, id, drawn && near);
  const docs = similar.data ?? [];
  return (
    <div ref={ref}>
      {docs.length > 0 && (
        <Box component="section" aria-labelledby={heading} sx={{ mt: 3 }}>
          <Typography id={heading} component="h2" variant="h6" sx={{ mb: 1 }}>
            {t('alike.similar.title')}
          </Typography>
          <Box
            component="ul"
            sx={{ display: 'flex', gap: 1.5, overflowX: 'auto', listStyle: 'none', p: 0, m: 0, pb: 1 }}
          >
            {docs.map((doc) => {
              const title = titleOf(doc);
              return (
                <Box component="li" key={doc.id} sx={{ flex: `0 0 ${POSTER}px`, width: POSTER }}>
                  <Box
                    component={RouterLink}
                    to={routePath({ page: 'asset', id: doc.id })}
                    aria-label={t('alike.similar.open', { name: title })}
                    sx={{
                      display: 'block',
                      color: 'inherit',
                      '&:focus-visible': { outline: 2, outlineStyle: 'solid' },
                    }}
                  >
                    {doc.url ? (
                      <Box
                        component="img"
                        {...thumbPicture(doc.url, { sizes: `${POSTER}px`, asset: doc })}
                        alt=""
                        sx={{
                          width: POSTER,
                          height: POSTER,
                          objectFit: 'cover',
                          display: 'block',
                          borderRadius: 1,
                          bgcolor: 'action.hover',
                        }}
                      />
                    ) : (
                      <Box sx={{ width: POSTER, height: POSTER, borderRadius: 1, bgcolor: 'action.hover' }} />
                    )}
                    <Typography variant="caption" component="span" noWrap sx={{ display: 'block', mt: 0.5 }}>
                      {title}
                    </Typography>
                  </Box>
                </Box>
              );
            })}
          </Box>
        </Box>
      )}
    </div>
  );
}
