import './visuallyHidden.css';

/** Styles that hide content visually but keep it for screen readers (sx width 1 would mean 100 %). */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** The same as a class of a static style sheet, for elements that are not MUI components. */
export const VISUALLY_HIDDEN = 'vt-visually-hidden';
