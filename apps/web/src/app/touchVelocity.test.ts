import { describe, expect, it } from 'vitest';
import {
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
