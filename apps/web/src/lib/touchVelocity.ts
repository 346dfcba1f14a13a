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

/**
 * One finger on the screen, as the drawer sees it: a touch that starts within `edge` px of the left
 * screen edge (or anywhere while the drawer is open) is followed, and when it lifts, the speed of its
 * last 100 ms decides. Times are the events' own (`event.timeStamp`), not when a busy page got round to
 * handling them, and the lift is a sample too: a finger that stopped before lifting flung nothing.
 */
export class DrawerSwipe {
  private readonly tracker = new VelocityTracker();
  private tracking = false;

  constructor(private readonly edge: number) {}

  start(time: number, x: number, open: boolean): void {
    this.tracker.reset();
    this.tracking = open || x <= this.edge;
    if (this.tracking) this.tracker.add(time, x);
  }

  move(time: number, x: number): void {
    if (this.tracking) this.tracker.add(time, x);
  }

  /** The finger lifted at `x`: whether the drawer, open or not, should now open or close. */
  end(time: number, x: number, open: boolean): 'open' | 'close' | undefined {
    if (!this.tracking) return undefined;
    this.tracking = false;
    this.tracker.add(time, x);
    const decision = flingDecision(this.tracker.velocity());
    if (decision === 'open' && !open) return 'open';
    if (decision === 'close' && open) return 'close';
    return undefined;
  }

  cancel(): void {
    this.tracking = false;
  }
}
