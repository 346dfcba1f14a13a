// Sessions and logins of the settings file (`session`, `login`): how long a session lives, which
// logins are offered, and when failed logins block or slow a client. settings.ts composes them into
// the file's schema.
import { z } from 'zod';

export const sessionSettingSchema = z
  .object({
    idleHours: z
      .number()
      .positive()
      .default(24 * 14)
      .describe('A session unused this long expires'),
    maxDays: z
      .number()
      .positive()
      .default(30)
      .describe('A session this old ends, however recently it was used (the user logs in again)'),
  })
  .prefault({});

export const loginSettingSchema = z
  .object({
    native: z.boolean().default(true).describe('Offer login with user name and password'),
    maxFailures: z
      .number()
      .int()
      .min(1)
      .default(5)
      .describe(
        'Failed logins in a row for one name from one client address before that address is blocked for the name; from all addresses together, before its logins are slowed',
      ),
    maxFailuresPerClient: z
      .number()
      .int()
      .min(1)
      .default(30)
      .describe('Failed logins from one client address, for any names, before the address is blocked'),
    blockMinutes: z
      .number()
      .positive()
      .default(15)
      .describe('How long a blocked address stays blocked; failures are forgotten after as long without one'),
    maxDelaySeconds: z
      .number()
      .min(0)
      .max(30)
      .default(4)
      .describe(
        'Longest wait before the answer to a login for a name (or a share-link password) that failed maxFailures times from all addresses together: 250 ms, doubling with each further failure',
      ),
    resetLinkHours: z.number().positive().default(2).describe('How long a password-reset link stays valid'),
    invitationHours: z
      .number()
      .positive()
      .default(72)
      .describe("How long the set-password link of an admin's invitation mail stays valid"),
    resetMailsPerAccount: z
      .number()
      .int()
      .min(1)
      .default(3)
      .describe('Password-reset mails asked for one name within a quiet hour'),
    resetMailsPerClient: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe('Password-reset mails asked for from one client address within a quiet hour'),
  })
  .prefault({});
