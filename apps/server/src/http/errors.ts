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

/*
 * The factories below are the only places that make a DomainError (lint refuses `new DomainError`
 * elsewhere), one or more per error id, so an id always comes with the same kind of message.
 */

/** 404: `what` (a phrase such as "The asset 7") was not found. */
export const notFound = (what: string) => new DomainError('not_found', `${what} was not found.`);
/** 404: the file of an asset left its folder (the next import marks the asset gone). */
export const fileMissing = (filename: string) =>
  new DomainError('not_found', `The file of ${filename} is no longer available.`);
/** 404 for something that is not there yet, in a sentence of its own. */
export const notYetAvailable = (message: string) => new DomainError('not_found', message);
export const forbidden = (message = 'You are not allowed to do this.') => new DomainError('forbidden', message);
export const unauthorized = (message = 'Please log in first.') => new DomainError('unauthorized', message);
export const validation = (message: string, details?: ErrorBody['details']) =>
  new DomainError('validation', message, { details });
/** 503 unavailable: this process cannot serve yet (readiness); `details` name the parts not ready. */
export const notReady = (message: string, details: ErrorBody['details']) =>
  new DomainError('unavailable', message, { details });
/** 400 query_too_costly: a search with more words or prefixes than one request may cost. */
export const queryTooCostly = (message: string, details?: ErrorBody['details']) =>
  new DomainError('query_too_costly', message, { details });
export const conflict = (message: string) => new DomainError('conflict', message);
export const wrongCredentials = () => new DomainError('wrong_credentials', 'Incorrect username or password');
/** 401: a share link with a password was opened without one. */
export const sharePasswordRequired = () =>
  new DomainError('share_password_required', 'This share link is protected by a password.');
/** 401: a share link was opened with a wrong password (counted like a failed login). */
export const wrongSharePassword = () => new DomainError('wrong_share_password', 'The password is not correct.');

/** 401 login_blocked for whole minutes; also as Retry-After. */
export function loginBlocked(minutes: number): DomainError {
  const span = minutes === 1 ? 'one minute' : `${minutes} minutes`;
  return new DomainError(
    'login_blocked',
    `You have had too many failed login attempts. No further login attempts possible for ${span}.`,
    { retryAfterMinutes: minutes, headers: { 'Retry-After': String(minutes * 60) } },
  );
}

/** 429 rate_limited: too many requests of a kind; `retryAfterSeconds` also as Retry-After. */
export const rateLimited = (message: string, retryAfterSeconds?: number) =>
  new DomainError('rate_limited', message, {
    headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
  });
/** 429 rate_limit_reached: one conversion download at a time (portal-spec §4 "Download flow"). */
export const rateLimitReached = (message: string) => new DomainError('rate_limit_reached', message);

/**
 * 429 busy: the slots of a kind of expensive work (conversions, page renders, …) are all taken and
 * the line is full; the caller may try again after `retryAfterSeconds` (also as Retry-After).
 */
export const busy = (message: string, retryAfterSeconds: number) =>
  new DomainError('busy', message, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** Whether `err` is a 429 `busy`: work that may be done later, or served another way now. */
export const isBusy = (err: unknown): err is DomainError => err instanceof DomainError && err.id === 'busy';

/**
 * 403 too_long: a caller without an account asked for a conversion of an original longer or larger
 * than the limit the message names (settings `work.conversions`); an account holder may have it.
 */
export const tooLongForGuests = (message: string) => new DomainError('too_long', message);
/**
 * 503 unavailable: the caller went away while its conversion was under way or waiting for a slot;
 * nobody reads the answer, it only ends the request without a 500 in the log.
 */
export const clientGone = () =>
  new DomainError('unavailable', 'The request was cancelled before its conversion was ready.');

/** 413: an upload or body larger than allowed. */
export const payloadTooLarge = (message: string) => new DomainError('payload_too_large', message);
/** 415: a file that is not of a type the call takes, or that cannot be converted. */
export const unsupportedMediaType = (message: string) => new DomainError('unsupported_media_type', message);
/** 422: an uploaded file the import cannot read; the message is the import's reason. */
export const unreadableFile = (message: string) => new DomainError('unreadable_file', message);
/** 416: a byte range that starts past the end of a file of `size` bytes (Content-Range names the size). */
export const rangeNotSatisfiable = (size: number) =>
  new DomainError('range_not_satisfiable', `The requested range lies outside this file of ${size} bytes.`, {
    headers: { 'Content-Range': `bytes */${size}` },
  });

export const xsrfRefused = () =>
  new DomainError('xsrf', 'The request lacks a valid XSRF token. Please reload the page.');

/** 400 link_invalid: a set-password link (reset or invitation) that is unknown, used or expired. */
export const linkInvalid = (message: string) =>
  new DomainError('link_invalid', message, {
    details: [{ path: 'body.token', message: 'is invalid, used or expired' }],
  });
/** 403 account_disabled: the right password (or identity provider) for an account an admin disabled. */
export const accountDisabled = () =>
  new DomainError('account_disabled', 'This account is disabled. Please ask an administrator to enable it.');
/** 409 own_admin: an admin's change would take away their own admin rights (or account). */
export const ownAdmin = (message: string) => new DomainError('own_admin', message);
/** 409 last_admin: the change would leave no enabled account in a group with admin rights. */
export const lastAdmin = (message: string) => new DomainError('last_admin', message);
