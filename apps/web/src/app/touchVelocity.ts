/**
 * Touch velocity for the drawer swipe (portal-spec §9: sampled over the last 100 ms, at most 20
 * samples): a fling is judged by how fast the finger moved just before it let go, not by the whole
 * gesture, so a slow drag that ends in a flick still counts as a flick.
 */
export const VELOCITY_HORIZON_MS = 100;
export const VELOCITY_SAMPLES = 20;
/** From this speed on (px/s) a swipe counts as a fling (the drawer library's default threshold). */
export const FLING_VELOCITY = 450;

interface Sample {
  time: number;
  x: number;
}

export class VelocityTracker {
  private samples: Sample[] = [];

  add(time: number, x: number): void {
    this.samples.push({ time, x });
    if (this.samples.length > VELOCITY_SAMPLES) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  /** Horizontal speed in px/s over the samples of the last 100 ms before the latest; 0 without two of them. */
  velocity(): number {
    const last = this.samples.at(-1);
    if (!last) return 0;
    const recent = this.samples.filter((s) => last.time - s.time <= VELOCITY_HORIZON_MS);
    const first = recent[0];
    if (!first || last.time === first.time) return 0;
    return ((last.x - first.x) / (last.time - first.time)) * 1000;
  }
}

/** What a finished swipe asks of the drawer: open, close, or nothing (not a fling). */
export function flingDecision(velocity: number): 'open' | 'close' | undefined {
  if (velocity >= FLING_VELOCITY) return 'open';
  if (velocity <= -FLING_VELOCITY) return 'close';
  return undefined;
}
