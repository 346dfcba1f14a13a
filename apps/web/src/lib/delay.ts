import { useEffect, useState } from 'react';

/** One pending timeout, replaced by the next: the open and close delays of menus and tooltips. */
export class Delay {
  private id: ReturnType<typeof setTimeout> | undefined;

  run(ms: number, action: () => void): void {
    this.cancel();
    this.id = setTimeout(action, ms);
  }

  cancel(): void {
    clearTimeout(this.id);
    this.id = undefined;
  }
}

/** A Delay of the component, cancelled when it unmounts. */
export function useDelay(): Delay {
  const [delay] = useState(() => new Delay());
  useEffect(() => () => delay.cancel(), [delay]);
  return delay;
}
