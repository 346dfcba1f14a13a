import { Box, Card, CardActionArea, Skeleton, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Link as RouterLink } from '../../lib/router.tsx';
import type { AssetDoc } from '@vitrine/contract/search';
import { routePath } from '@vitrine/contract/paths';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { BookmarkToggle } from '../../widgets/BookmarkToggle.tsx';
import { useLongPress } from '../../lib/longPress.ts';
import type { ClickModifiers } from '../../lib/selection.ts';
import { pixelSize, thumbPicture } from '../../lib/pictures.ts';
import { useNearViewport } from '../../lib/useNearViewport.ts';

/** portal-spec §9: cards load when they come within 400 px of the viewport. */
export const LAZY_MARGIN = '400px';
/** The picture's height on small screens; on larger ones it is the card's height less its title row. */
const SMALL_IMAGE_HEIGHT = 200;
const TITLE_ROW = 32;
/** Cards fill the columns of a grid at least this wide (BookmarkPage)... */
export const CARD_MIN_WIDTH = 220;
/** ...so at most this wide: one more would fit in two such columns and their gap. */
const CARD_MAX_WIDTH = 2 * CARD_MIN_WIDTH + 16;

/**
 * The height of a card's picture (portal-spec §9): the card's height less its title row on medium
 * and larger screens, otherwise 200.
 */
export function bookmarkImageHeight(cardHeight: number, mediumOrLarger: boolean): number {
  return mediumOrLarger ? cardHeight - TITLE_ROW : SMALL_IMAGE_HEIGHT;
}

/**
 * The width a card's picture is drawn at: the card's, or less for a picture whose height (contained
 * in `imageHeight`) leaves it narrower; as wide as the screen at most.
 */
function drawnSizes(doc: AssetDoc, imageHeight: number): string {
  const size = pixelSize(doc);
  const widest = Math.min(CARD_MAX_WIDTH, size ? Math.ceil((imageHeight * size.width) / size.height) : Infinity);
  return `(max-width: ${widest}px) 100vw, ${widest}px`;
}

/**
 * One bookmarked asset: a skeleton until it nears the viewport, then its thumbnail and title. A click
 * selects it (ctrl/meta and shift as on search); Space and a long press toggle it.
 */
export function BookmarkCard({
  doc,
  title,
  selected,
  onSelect,
  first = false,
  borderWidth = defaultGlobalConfig.bookmark.options.border_width,
  cardHeight = SMALL_IMAGE_HEIGHT + TITLE_ROW,
}: {
  doc: AssetDoc;
  /** The configured title field as the field formatter shows it (config bookmark.title). */
  title: string;
  selected: boolean;
  onSelect: (click: ClickModifiers) => void;
  /** One of the cards seen first: its picture is fetched at once and first. */
  first?: boolean;
  /**
   * The card's border in px (config bookmark.options.border_width, by default the config's 2 as
   * decision 0268 chose); a selected card's is 1 px wider.
   */
  borderWidth?: number;
  /** The card's height in px (config bookmark.options.card_height), which its picture follows. */
  cardHeight?: number;
}) {
  const mediumOrLarger = useMediaQuery(useTheme().breakpoints.up('md'));
  const imageHeight = bookmarkImageHeight(cardHeight, mediumOrLarger);
  const { ref, near } = useNearViewport(LAZY_MARGIN);
  const longPress = useLongPress(() => onSelect({ shiftKey: false, ctrlKey: true, metaKey: false }));
  return (
    <Card
      ref={ref}
      variant="outlined"
      sx={{
        borderWidth: selected ? borderWidth + 1 : borderWidth,
        borderColor: selected ? 'primary.main' : undefined,
      }}
      data-testid="bookmark-card"
    >
      <CardActionArea
        role="checkbox"
        aria-checked={selected}
        aria-label={title}
        onClick={(event) => onSelect(event)}
        {...longPress}
        sx={{ userSelect: 'none', WebkitTouchCallout: 'none', '& img': { WebkitUserDrag: 'none' } }}
        onKeyDown={(event) => {
          if (event.key === ' ') {
            event.preventDefault();
            onSelect({ shiftKey: event.shiftKey, ctrlKey: true, metaKey: false });
          }
        }}
      >
        {near ? (
          <Box
            component="img"
            {...(doc.url && thumbPicture(doc.url, { sizes: drawnSizes(doc, imageHeight), asset: doc, first }))}
            alt=""
            sx={{
              width: '100%',
              height: imageHeight,
              objectFit: 'contain',
              display: 'block',
              bgcolor: 'action.hover',
            }}
          />
        ) : (
          <Skeleton variant="rectangular" height={imageHeight} />
        )}
      </CardActionArea>
      <Stack direction="row" sx={{ alignItems: 'center', px: 1 }}>
        <Typography
          component={RouterLink}
          to={routePath({ page: 'asset', id: doc.id })}
          sx={{ flex: 1, overflowWrap: 'anywhere', color: 'inherit' }}
        >
          {title}
        </Typography>
        <BookmarkToggle id={doc.id} size="small" />
      </Stack>
    </Card>
  );
}
