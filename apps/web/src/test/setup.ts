import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor wait up to 3 s: a route's screen loads its code before it shows, which on a
// busy machine takes longer than the default second.
configure({ asyncUtilTimeout: 3000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom does not lay out or scroll; the shell scrolls on every route change.
window.scrollTo = () => undefined;
