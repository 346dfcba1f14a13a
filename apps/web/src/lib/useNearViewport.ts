import { useEffect, useRef, useState } from 'react';

/**
 * Whether the element has come within `rootMargin` of the viewport (once true, it stays), for
 * content that loads only when it is about to be seen. `show` marks it near at once, e.g. when it
 * takes the keyboard focus.
 */
export function useNearViewport<T extends Element = HTMLDivElement>(rootMargin: string) {
  const ref = useRef<T>(null);
  // Without IntersectionObserver (old browsers, jsdom) everything loads at once.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, rootMargin]);
  return { ref, near, show: () => setNear(true) };
}
