import { useState } from 'react';

/**
 * Runs `onChange` while drawing, when `value` differs from the one of the last draw (React's way to
 * adjust state to a changed input: the state set in `onChange` is drawn at once, no frame shows the
 * old one). `onChange` may only set state of the component that calls this.
 */
export function useOnChange<T>(value: T, onChange: (previous: T) => void): void {
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    onChange(seen);
  }
}
