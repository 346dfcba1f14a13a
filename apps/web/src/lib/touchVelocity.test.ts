import { describe, expect, it } from 'vitest';
import { DRAWER_WIDTH, RAIL_WIDTH, SWIPE_EDGE } from '../app/NavDrawer.tsx';
import {
  DrawerSwipe,
  FLING_VELOCITY,
  flingDecision,
  VELOCITY_HORIZON_MS,
  VELOCITY_SAMPLES,
  VelocityTracker,
} from './touchVelocity.ts';

describe('touch velocity sampling (portal-spec §9: 100 ms, 20 samples)', () => {
  it('measures px/s over the samples of the last 100 ms only', () => {
    const tracker = new VelocityTracker();
    // A slow drag for a second, then a quick flick of 60 px in the last 60 ms.
    for (let t = 0; t <= 1000; t += 100) tracker.add(t, t / 10);
    tracker.add(1020, 120);
    tracker.add(1040, 140);
    tracker.add(1060, 160);
    expect(VELOCITY_HORIZON_MS).toBe(100);
    // Samples from t = 1000 (x = 100) on: 60 px in 60 ms.
    expect(tracker.velocity()).toBeCloseTo(1000);
  });

  it('keeps at most 20 samples', () => {
    const tracker = new VelocityTracker();
    // 30 samples 1 ms apart, the first ten far to the left: only the last 20 (all at x 0..19) count.
    for (let i = 0; i < 30; i++) tracker.add(i, i < 10 ? -10_000 : i - 10);
    expect(VELOCITY_SAMPLES).toBe(20);
    expect(tracker.velocity()).toBeCloseTo(1000);
  });

  it('is 0 without two samples and after a reset', () => {
    const tracker = new VelocityTracker();
    expect(tracker.velocity()).toBe(0);
    tracker.add(0, 10);
    expect(tracker.velocity()).toBe(0);
    tracker.add(10, 50);
    tracker.reset();
    expect(tracker.velocity()).toBe(0);
  });

  it('turns fast swipes into open or close and slow ones into nothing', () => {
    expect(flingDecision(FLING_VELOCITY)).toBe('open');
    expect(flingDecision(-FLING_VELOCITY - 1)).toBe('close');
    expect(flingDecision(FLING_VELOCITY - 1)).toBeUndefined();
    expect(flingDecision(0)).toBeUndefined();
  });
});

/** A finger moving from `from` to `to` at `pxPerMs` in 10 ms steps, starting at `t0`; ends at the time it arrives. */
function drag(swipe: DrawerSwipe, t0: number, from: number, to: number, pxPerMs: number): number {
  const step = Math.sign(to - from) * pxPerMs * 10;
  let t = t0;
  for (let x = from + step; step > 0 ? x <= to : x >= to; x += step) swipe.move((t += 10), x);
  return t;
}

describe('drawer swipes (portal-spec §9: swipe edge 25 px, drawer 256, rail 56, sampling 100 ms, 20 samples)', () => {
  it('has the sizes of the spec', () => {
    expect(SWIPE_EDGE).toBe(25);
    expect(DRAWER_WIDTH).toBe(256);
    expect(RAIL_WIDTH).toBe(56);
  });

  it('opens the closed drawer on a fling that starts within 25 px of the screen edge, not one from further in', () => {
    for (const [startX, expected] of [
      [0, 'open'],
      [SWIPE_EDGE, 'open'],
      [SWIPE_EDGE + 1, undefined],
      [120, undefined],
    ] as const) {
      const swipe = new DrawerSwipe(SWIPE_EDGE);
      swipe.start(0, startX, false);
      const t = drag(swipe, 0, startX, startX + DRAWER_WIDTH / 2, 2);
      expect(swipe.end(t, startX + DRAWER_WIDTH / 2, false), `from x = ${startX}`).toBe(expected);
    }
  });

  it('closes the open drawer on a fling back from anywhere, and leaves slow swipes to the distance pulled', () => {
    const back = new DrawerSwipe(SWIPE_EDGE);
    back.start(0, 200, true);
    expect(back.end(drag(back, 0, 200, 40, 1), 40, true)).toBe('close');
    // 0.3 px/ms = 300 px/s, under the fling speed of 450 px/s.
    const slow = new DrawerSwipe(SWIPE_EDGE);
    slow.start(0, 10, false);
    expect(slow.end(drag(slow, 0, 10, 190, 0.3), 190, false)).toBeUndefined();
    // A fling the way the drawer already is changes nothing.
    const again = new DrawerSwipe(SWIPE_EDGE);
    again.start(0, 10, true);
    expect(again.end(drag(again, 0, 10, 200, 2), 200, true)).toBeUndefined();
  });

  it('judges the speed of the last 100 ms before the finger lifted: one that stopped first flung nothing', () => {
    const stopped = new DrawerSwipe(SWIPE_EDGE);
    stopped.start(0, 5, false);
    const arrived = drag(stopped, 0, 5, 205, 2);
    // The finger rests 150 ms at x 205 without a move event, then lifts there.
    expect(stopped.end(arrived + 150, 205, false)).toBeUndefined();
    // The same swipe lifted at once is a fling.
    const flung = new DrawerSwipe(SWIPE_EDGE);
    flung.start(0, 5, false);
    expect(flung.end(drag(flung, 0, 5, 205, 2) + 5, 205, false)).toBe('open');
  });

  it('forgets a touch that was cancelled', () => {
    const swipe = new DrawerSwipe(SWIPE_EDGE);
    swipe.start(0, 5, false);
    const t = drag(swipe, 0, 5, 205, 2);
    swipe.cancel();
    expect(swipe.end(t, 205, false)).toBeUndefined();
  });
});
