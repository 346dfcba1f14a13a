import type { ErrorBody, ErrorId } from '@vitrine/contract/errors';
import { errorStatus } from '@vitrine/contract/errors';

/** A failure the caller can act on: it carries a stable id and a message a person understands. */
export class DomainError extends Error {
  readonly id: ErrorId;
  readonly details: ErrorBody['details'];
  readonly headers: Record<string, string>;
  readonly retryAfterMinutes: number | undefined;

  constructor(
    id: ErrorId,
    message: string,
    options: { details?: ErrorBody['details']; headers?: Record<string, string>; retryAfterMinutes?: number } = {},
  ) {
    super(message);
    this.id = id;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.retryAfterMinutes = options.retryAfterMinutes;
  }

  get status(): number {
    return errorStatus[this.id];
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} was not found.`);
export const forbidden = (message = 'You are not allowed to do this.') => new DomainError('forbidden', message);
export const unauthorized = (message = 'Please log in first.') => new DomainError('unauthorized', message);
export const validation = (message: string, details?: ErrorBody['details']) =>
  new DomainError('validation', message, { details });
