import { Box, Button, GlobalStyles, Paper, Typography } from '@mui/material';
import {
  startTransition,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { useGlobalConfig } from '../stores/config.ts';
import { Anchored } from '../components/Anchored.tsx';
import {
  finishedTours,
  markTourFinished,
  presentSteps,
  tourTarget,
  type TourPage,
  type TourStep,
} from '../lib/tour.ts';

/** Time for the page's rows and menus to settle before the tour looks for its elements. */
const START_DELAY_MS = 600;
/** How long a brought-up step waits for its element before the tour goes on without it. */
const BRING_UP_MS = 1500;
const ACTIVE_ATTRIBUTE = 'data-tour-active';

function isTyping(el: Element | null): boolean {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
}

/**
 * The guided tour (portal-spec §2 "Guided tour", admin-spec §9): the configured steps in order, each
 * pointing at the element marked `data-tour="<key>"`; steps whose element is not on the page are
 * skipped. It starts when `ready` (on search also whenever `startKey`, the total, changes), when the
 * config enables it and the page is not yet in the stored tour list; finishing or ending it puts the
 * page there. A non-modal dialog: Escape ends it, focus returns to where it was.
 */
export function GuidedTour({
  page,
  ready,
  startKey,
  bringUp,
}: {
  page: TourPage;
  ready: boolean;
  startKey?: number;
  /**
   * Steps whose element the page shows on request (the search page opens the first result's info
   * panel for `info_panel`): such a step is kept although its element is not on the page yet.
   */
  bringUp?: Partial<Record<string, () => void>>;
}) {
  const { t } = useTranslation();
  const { config, status } = useGlobalConfig();
  // `anchor` is null while a brought-up step's element is on its way.
  const [tour, setTour] = useState<{ steps: TourStep[]; index: number; anchor: HTMLElement | null } | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  const enabled = status !== 'loading' && config.guide.show;
  const running = tour !== null;

  useEffect(() => {
    if (!ready || !enabled || running || finishedTours().includes(page)) return;
    const timer = setTimeout(() => {
      const present = presentSteps(config.guide.tour, (key) => bringUp?.[key] ?? tourTarget(key));
      const anchor = present[0] && tourTarget(present[0].key);
      if (!anchor) return;
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      // Drawn in a transition: the page it starts on may still be drawing its first rows.
      startTransition(() => setTour({ steps: present, index: 0, anchor }));
    }, START_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the steps a page can bring up are read when the tour starts
  }, [ready, enabled, running, page, startKey, config.guide.tour]);

  // A brought-up step waits for its element (a frame or a few), then points at it; when it does not
  // come, the tour goes on with the next step.
  useEffect(() => {
    if (!tour || tour.anchor) return;
    const key = tour.steps[tour.index]?.key ?? '';
    const until = performance.now() + BRING_UP_MS;
    let frame = 0;
    const look = () => {
      const found = tourTarget(key);
      if (found) return setTour({ ...tour, anchor: found });
      if (performance.now() < until) return void (frame = requestAnimationFrame(look));
      const later = tour.steps.findIndex((s, i) => i > tour.index && tourTarget(s.key));
      if (later >= 0) return setTour({ ...tour, index: later, anchor: tourTarget(tour.steps[later]?.key ?? '') });
      markTourFinished(page);
      setTour(null);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [tour, page]);

  const anchor = tour?.anchor;
  const index = tour?.index ?? 0;
  // Mark the step's element and bring it into view.
  useLayoutEffect(() => {
    if (!anchor) return;
    anchor.setAttribute(ACTIVE_ATTRIBUTE, '');
    anchor.scrollIntoView({ block: 'nearest' });
    return () => anchor.removeAttribute(ACTIVE_ATTRIBUTE);
  }, [anchor]);

  // Focus goes to the step's main button; the dialog mounts its content a moment after the anchor
  // is set, so a button not there yet takes the focus when it mounts.
  const focusPending = useRef(false);
  const primaryRef = useCallback((el: HTMLButtonElement | null) => {
    primary.current = el;
    if (el && focusPending.current) {
      focusPending.current = false;
      el.focus({ preventScroll: true });
    }
  }, []);
  useEffect(() => {
    if (!anchor || !running || (index === 0 && isTyping(returnFocus.current))) return;
    if (primary.current) primary.current.focus({ preventScroll: true });
    else focusPending.current = true;
  }, [anchor, index, running]);

  if (!tour?.anchor) return null;
  const { steps } = tour;
  const step = steps[index];
  if (!step) return null;
  const end = () => {
    markTourFinished(page);
    setTour(null);
    if (returnFocus.current?.isConnected) returnFocus.current.focus();
  };
  /**
   * The next step in that direction whose element is still on the page (one may have gone since the
   * start), or that the page brings up.
   */
  const following = (dir: 1 | -1): { index: number; anchor: HTMLElement | null } | undefined => {
    for (let i = index + dir; i >= 0 && i < steps.length; i += dir) {
      const { key } = steps[i]!;
      const target = tourTarget(key);
      if (target) return { index: i, anchor: target };
      if (bringUp?.[key]) return { index: i, anchor: null };
    }
    return undefined;
  };
  const next = following(1);
  const previous = following(-1);
  const go = (to: { index: number; anchor: HTMLElement | null }) => {
    if (!to.anchor) bringUp?.[steps[to.index]?.key ?? '']?.();
    setTour({ steps, ...to });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      end();
    }
  };
  return (
    <>
      <GlobalStyles
        styles={(theme) => ({
          [`[${ACTIVE_ATTRIBUTE}]`]: {
            outline: `3px solid ${theme.palette.primary.main}`,
            outlineOffset: 2,
            borderRadius: 4,
          },
        })}
      />
      <Anchored
        anchor={tour.anchor}
        placement="bottom"
        sx={{ zIndex: (theme) => theme.zIndex.modal + 1, maxWidth: 'min(360px, calc(100vw - 16px))' }}
      >
        <Paper
          role="dialog"
          aria-modal="false"
          aria-labelledby={titleId}
          aria-describedby={textId}
          data-testid="guided-tour"
          onKeyDown={onKeyDown}
          elevation={8}
          sx={{ p: 2, mt: 1, mb: 1 }}
        >
          <Typography id={titleId} component="h2" variant="subtitle2">
            {t('global.tour_guide.title')} · {t('global.tour_guide.progress', { n: index + 1, m: steps.length })}
          </Typography>
          <Typography id={textId} variant="body2" sx={{ my: 1 }}>
            {t(step.translation, { defaultValue: t(`views.tour.${step.key}`) })}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
            <Button size="small" onClick={end} sx={{ mr: 'auto' }}>
              {t('global.tour_guide.skip')}
            </Button>
            {previous !== undefined && (
              <Button size="small" onClick={() => go(previous)}>
                {t('global.tour_guide.back')}
              </Button>
            )}
            <Button
              ref={primaryRef}
              size="small"
              variant="contained"
              onClick={() => (next === undefined ? end() : go(next))}
            >
              {t(next === undefined ? 'global.tour_guide.finish' : 'global.tour_guide.next')}
            </Button>
          </Box>
        </Paper>
      </Anchored>
    </>
  );
}
