import { setupServer } from 'msw/node';
import type { Session } from '@vitrine/contract/session';
import { configHandlers, sessionAnswer, sessionHandlers } from './msw.ts';

export { api, sessionAnswer } from './msw.ts';

/** An msw server answering session/get and the config calls like a fresh portal does. */
export function createSessionServer(session: Session = sessionAnswer()) {
  return setupServer(...sessionHandlers(session), ...configHandlers());
}
