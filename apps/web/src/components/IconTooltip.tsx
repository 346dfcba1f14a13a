import { cloneElement, useId, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';
import { useDelay } from '../lib/delay.ts';
import { useEscapeKey } from '../lib/useEscapeKey.ts';
import { Anchored } from './Anchored.tsx';

/**
 * Tooltips of icon buttons (portal-spec §9): on top, multiline, at most 275 px wide, in the primary
 * colour (orange in the default themes). Every tooltip of the portal is this one; lint bans the
 * library's.
 */
export const TOOLTIP_MAX_WIDTH = 275;
/** The pointer rests this long before the tooltip shows, and may leave this long to reach it. */
const ENTER_DELAY_MS = 100;
const LEAVE_DELAY_MS = 100;
/** Space between the button and its tooltip. */
const GAP = 14;

interface ChildProps {
  'aria-label'?: string;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
}

function focusVisible(el: HTMLElement): boolean {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true;
  }
}

/**
 * Names an icon button and shows that name above it when the pointer rests on it or the keyboard
 * focus reaches it. The pointer may move onto the tooltip without it closing, and Escape closes it
 * (WCAG 1.4.13). The button is named by `aria-label` unless it names itself.
 */
export function IconTooltip({ title, children }: { title: string; children: ReactElement<ChildProps> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const delay = useDelay();
  const id = useId();
  useEscapeKey(anchor !== null, () => setAnchor(null));

  const later = (ms: number, next: HTMLElement | null) => delay.run(ms, () => setAnchor(next));
  const own = children.props;
  const child = cloneElement(children, {
    'aria-label': own['aria-label'] ?? title,
    onMouseEnter: (event) => {
      own.onMouseEnter?.(event);
      later(ENTER_DELAY_MS, event.currentTarget);
    },
    onMouseLeave: (event) => {
      own.onMouseLeave?.(event);
      later(LEAVE_DELAY_MS, null);
    },
    onFocus: (event) => {
      own.onFocus?.(event);
      if (focusVisible(event.currentTarget)) later(0, event.currentTarget);
    },
    onBlur: (event) => {
      own.onBlur?.(event);
      delay.cancel();
      setAnchor(null);
    },
  });
  return (
    <>
      {child}
      {anchor?.isConnected && title && (
        <Anchored
          anchor={anchor}
          placement="top"
          gap={GAP}
          role="tooltip"
          id={id}
          onMouseEnter={() => delay.cancel()}
          onMouseLeave={() => later(LEAVE_DELAY_MS, null)}
          sx={(theme) => ({
            zIndex: theme.zIndex.tooltip,
            maxWidth: TOOLTIP_MAX_WIDTH,
            whiteSpace: 'pre-line',
            overflowWrap: 'break-word',
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
            borderRadius: 1,
            px: 1,
            py: 0.5,
            fontFamily: theme.typography.fontFamily,
            fontSize: theme.typography.pxToRem(11),
            fontWeight: theme.typography.fontWeightMedium,
            lineHeight: 1.4,
          })}
        >
          {title}
        </Anchored>
      )}
    </>
  );
}
