// The per-client rate limits of the settings file (`rateLimits`); user/rate-limits.ts enforces them.
// settings.ts composes them into the file's schema.
import { z } from 'zod';

/** One per-client limit: at most `max` requests of a kind from one client address within `minutes`. */
function clientLimitShape(max: number, minutes: number, what: string) {
  return {
    max: z.number().int().min(1).default(max).describe(`${what} from one client address within the window`),
    minutes: z
      .number()
      .int()
      .min(1)
      // The purge job forgets counts quiet for an hour; a longer window would be cut short.
      .max(60)
      .default(minutes)
      .describe('The window the requests are counted in, in minutes (at most 60)'),
  };
}

function clientLimit(max: number, minutes: number, what: string) {
  return z.strictObject(clientLimitShape(max, minutes, what)).prefault({});
}

/** A per-client limit that also holds a client to `burst` at once (user/rate-limits.ts `countedAs`). */
function burstLimit(max: number, minutes: number, what: string, burst: number) {
  return z
    .strictObject({
      ...clientLimitShape(max, minutes, what),
      burst: z
        .number()
        .int()
        .min(1)
        .nullable()
        .default(burst)
        .describe(
          'At most this many at once; the budget comes back evenly, one every `minutes` / `max` ' +
            '(null, or a burst of at least max, lets all max come at once)',
        ),
    })
    .prefault({});
}

/**
 * Per-client limits on what costs the portal work or mails and needs no account (docs/security.md
 * "What is rate-limited"); the defaults leave room for a whole office or school behind one address.
 */
export const rateLimitsSchema = z
  .strictObject({
    guestSessions: burstLimit(60, 10, 'New guest sessions', 10),
    shareOpens: burstLimit(60, 10, 'Share links opened (each try, with or without a password)', 10),
    orders: clientLimit(20, 60, 'Order mails'),
    search: clientLimit(1200, 10, 'Searches and suggestions of callers without an account'),
    ssoLogins: burstLimit(60, 10, 'Single sign-on logins started (each SAML login stores its request)', 10),
  })
  .prefault({});
export type RateLimitName = keyof z.infer<typeof rateLimitsSchema>;
