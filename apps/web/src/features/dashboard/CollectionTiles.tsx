import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from '../../lib/router.tsx';
import { thumbPicture } from '../../lib/pictures.ts';

/** Tiles are at most 400 × 300 (portal-spec §2 "Dashboard"). */
export const TILE_MAX_WIDTH = 400;
export const TILE_MAX_HEIGHT = 300;

export interface Tile {
  id: string;
  label: string;
  imageUrl?: string;
  searchPath: string;
}

/** Collections as tiles: a grid of tiles of at most 400 × 300. */
export function CollectionTileGrid({ children }: { children: ReactNode }) {
  return (
    <Box
      component="ul"
      sx={{
        display: 'grid',
        gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, 240px), ${TILE_MAX_WIDTH}px))`,
        gap: 2,
        listStyle: 'none',
        m: 0,
        p: 0,
      }}
    >
      {children}
    </Box>
  );
}

/**
 * A tile is as wide as the page on a phone (the grid's one column), else at most TILE_MAX_WIDTH.
 * The page's padding is left out: a little more than drawn is fine, less would look blurred.
 */
const TILE_SIZES = `(max-width: ${TILE_MAX_WIDTH + 40}px) 100vw, ${TILE_MAX_WIDTH}px`;

/**
 * One tile: the image from the thumbnail call with the label, leading to the collection's search.
 * The tiles of the `first` row get their pictures at once and first.
 */
export function CollectionTile({ tile, first = false }: { tile: Tile; first?: boolean }) {
  return (
    <Box component="li" data-tour="tile">
      <Box
        component={RouterLink}
        to={tile.searchPath}
        sx={{
          position: 'relative',
          display: 'block',
          maxWidth: TILE_MAX_WIDTH,
          aspectRatio: `${TILE_MAX_WIDTH} / ${TILE_MAX_HEIGHT}`,
          maxHeight: TILE_MAX_HEIGHT,
          borderRadius: 1,
          overflow: 'hidden',
          bgcolor: 'secondary.main',
          color: '#ffffff',
          textDecoration: 'none',
          '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        {tile.imageUrl && (
          <Box
            component="img"
            {...thumbPicture(tile.imageUrl, { sizes: TILE_SIZES, first })}
            alt=""
            sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
          />
        )}
        <Typography
          component="span"
          variant="h6"
          sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, p: 1.5, bgcolor: 'rgba(0,0,0,0.6)' }}
        >
          {tile.label}
        </Typography>
      </Box>
    </Box>
  );
}
