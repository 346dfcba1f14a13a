import { act, cleanup } from '@testing-library/react';
import type { SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { resetSessionState } from '../stores/session.ts';
import { toast } from '../lib/toast.ts';

/**
 * Runs `server` for the test file. After each test the app is unmounted first (so that it cannot
 * load a session after the state is reset), then the test's own handlers, the session state and the
 * notices are dropped.
 */
export function startTestServer(server: SetupServer, onUnhandledRequest: 'error' | 'bypass'): void {
  beforeAll(() => server.listen({ onUnhandledRequest }));
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    resetSessionState();
    act(() => toast.clear());
  });
  afterAll(() => server.close());
}
