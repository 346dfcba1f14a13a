/**
 * The maths of the 3D viewer that needs no WebGL: how far the camera stands to show a whole model,
 * and what the keyboard does to the view (portal-spec §2 "Asset detail", issue #27).
 */

/** The camera around the model's centre: angles in radians, the polar angle from straight above. */
export interface OrbitView {
  azimuth: number;
  polar: number;
  distance: number;
}

export type ViewKeyAction =
  { kind: 'rotate'; azimuth: number; polar: number } | { kind: 'zoom'; factor: number } | { kind: 'reset' };

/** One arrow key press turns the model by 15°. */
export const ROTATE_STEP = Math.PI / 12;
/** One + brings the camera to 80 % of its distance; one − takes it back. */
export const ZOOM_STEP = 0.8;
/** Room around the model's bounding sphere when it is framed. */
export const FRAME_MARGIN = 1.1;
/** The camera stops just short of straight above or below, where "left" would lose its meaning. */
const POLAR_LIMIT = 0.01;

/**
 * What a key does; undefined for keys the viewer leaves to the page. The arrows turn the model the
 * way dragging it in that direction would.
 */
export function viewKeyAction(key: string): ViewKeyAction | undefined {
  switch (key) {
    case 'ArrowLeft':
      return { kind: 'rotate', azimuth: ROTATE_STEP, polar: 0 };
    case 'ArrowRight':
      return { kind: 'rotate', azimuth: -ROTATE_STEP, polar: 0 };
    case 'ArrowUp':
      return { kind: 'rotate', azimuth: 0, polar: ROTATE_STEP };
    case 'ArrowDown':
      return { kind: 'rotate', azimuth: 0, polar: -ROTATE_STEP };
    case '+':
    case '=':
      return { kind: 'zoom', factor: ZOOM_STEP };
    case '-':
    case '_':
      return { kind: 'zoom', factor: 1 / ZOOM_STEP };
    case 'Home':
      return { kind: 'reset' };
    default:
      return undefined;
  }
}

/** The view after a turn or a zoom, kept within the polar range and the allowed distances. */
export function moveView(
  view: OrbitView,
  action: Exclude<ViewKeyAction, { kind: 'reset' }>,
  distances: { min: number; max: number },
): OrbitView {
  if (action.kind === 'zoom') {
    return { ...view, distance: Math.min(distances.max, Math.max(distances.min, view.distance * action.factor)) };
  }
  const polar = Math.min(Math.PI - POLAR_LIMIT, Math.max(POLAR_LIMIT, view.polar + action.polar));
  return { ...view, azimuth: view.azimuth + action.azimuth, polar };
}

/**
 * How far from its centre the camera stands so that a model with a bounding sphere of `radius`
 * fits both ways in a view of `verticalFov` degrees and `aspect` (width / height), with a margin.
 */
export function frameDistance(radius: number, verticalFov: number, aspect: number): number {
  const vertical = (verticalFov * Math.PI) / 180;
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * aspect);
  const narrowest = Math.min(vertical, horizontal);
  // A model of no size (a single point) is shown as if it were one unit across.
  return ((radius > 0 ? radius : 1) / Math.sin(narrowest / 2)) * FRAME_MARGIN;
}

/** The view as the canvas's data-view attribute gives it: degrees and distance, rounded. */
export function describeView(view: OrbitView): string {
  const deg = (rad: number) => ((rad * 180) / Math.PI).toFixed(1);
  return `${deg(view.azimuth)} ${deg(view.polar)} ${view.distance.toPrecision(4)}`;
}
