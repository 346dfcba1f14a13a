import { describe, expect, it } from 'vitest';
import { describeView, FRAME_MARGIN, frameDistance, moveView, ROTATE_STEP, viewKeyAction, ZOOM_STEP } from './orbit.ts';

const deg = (d: number) => (d * Math.PI) / 180;

describe('the keys of the 3D viewer', () => {
  it('turns with the arrows the way dragging in that direction does, zooms with + and −, resets with Home', () => {
    expect(viewKeyAction('ArrowLeft')).toEqual({ kind: 'rotate', azimuth: ROTATE_STEP, polar: 0 });
    expect(viewKeyAction('ArrowRight')).toEqual({ kind: 'rotate', azimuth: -ROTATE_STEP, polar: 0 });
    expect(viewKeyAction('ArrowUp')).toEqual({ kind: 'rotate', azimuth: 0, polar: ROTATE_STEP });
    expect(viewKeyAction('ArrowDown')).toEqual({ kind: 'rotate', azimuth: 0, polar: -ROTATE_STEP });
    for (const key of ['+', '=']) expect(viewKeyAction(key)).toEqual({ kind: 'zoom', factor: ZOOM_STEP });
    for (const key of ['-', '_']) expect(viewKeyAction(key)).toEqual({ kind: 'zoom', factor: 1 / ZOOM_STEP });
    expect(viewKeyAction('Home')).toEqual({ kind: 'reset' });
    expect(ROTATE_STEP).toBeCloseTo(deg(15));
  });

  it('leaves every other key to the page (Tab moves on, Enter and Space do nothing here)', () => {
    for (const key of ['Tab', 'Enter', ' ', 'Escape', 'a', 'End', 'PageDown'])
      expect(viewKeyAction(key)).toBeUndefined();
  });
});

describe('moving the view', () => {
  const view = { azimuth: 0, polar: deg(90), distance: 10 };
  const limits = { min: 2, max: 50 };

  it('turns around the model by the step', () => {
    expect(moveView(view, { kind: 'rotate', azimuth: deg(15), polar: 0 }, limits).azimuth).toBeCloseTo(deg(15));
    expect(moveView(view, { kind: 'rotate', azimuth: 0, polar: -deg(15) }, limits).polar).toBeCloseTo(deg(75));
  });

  it('stops short of straight above and below, where left and right would flip', () => {
    const over = moveView({ ...view, polar: deg(5) }, { kind: 'rotate', azimuth: 0, polar: -deg(15) }, limits);
    expect(over.polar).toBeGreaterThan(0);
    expect(over.polar).toBeLessThan(deg(1));
    const under = moveView({ ...view, polar: deg(175) }, { kind: 'rotate', azimuth: 0, polar: deg(15) }, limits);
    expect(under.polar).toBeLessThan(Math.PI);
    expect(under.polar).toBeGreaterThan(deg(179));
  });

  it('zooms by the factor within the allowed distances', () => {
    expect(moveView(view, { kind: 'zoom', factor: 0.8 }, limits).distance).toBeCloseTo(8);
    expect(moveView({ ...view, distance: 2.2 }, { kind: 'zoom', factor: 0.8 }, limits).distance).toBe(2);
    expect(moveView({ ...view, distance: 45 }, { kind: 'zoom', factor: 1.25 }, limits).distance).toBe(50);
  });
});

describe('framing a model', () => {
  it('stands back so that the bounding sphere fits the field of view, with a margin', () => {
    // In a square 90° view a sphere of radius 1 touches the edges at √2.
    expect(frameDistance(1, 90, 1)).toBeCloseTo(Math.SQRT2 * FRAME_MARGIN);
    // Twice the size, twice the distance.
    expect(frameDistance(2, 40, 4 / 3)).toBeCloseTo(2 * frameDistance(1, 40, 4 / 3));
  });

  it('fits the narrower side: a tall frame (a phone) needs more distance than a wide one', () => {
    expect(frameDistance(1, 40, 16 / 9)).toBeCloseTo(frameDistance(1, 40, 1));
    expect(frameDistance(1, 40, 0.5)).toBeGreaterThan(frameDistance(1, 40, 1) * 1.5);
  });

  it('shows a model of no size as if it were one unit across', () => {
    expect(frameDistance(0, 40, 1)).toBe(frameDistance(1, 40, 1));
  });

  it('writes the view in degrees and a distance of four digits', () => {
    expect(describeView({ azimuth: deg(30), polar: deg(75), distance: 12.3456 })).toBe('30.0 75.0 12.35');
  });
});
