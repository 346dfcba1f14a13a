import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from '../../lib/router.tsx';

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

/** One tile: the image from the thumbnail call with the label, leading to the collection's search. */
export function CollectionTile({ tile }: { tile: Tile }) {
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
            src={tile.imageUrl}
            alt=""
            loading="lazy"
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
