import { z } from 'zod';
import { defineCall, queryInt } from './call.ts';

/**
 * Accounts in the admin area (issue #50, docs/security.md "People"): the admin lists and searches
 * them, invites new people by mail, edits their groups, disables, unblocks and removes them. Every
 * call is for GUI admins only. Groups and their rights are the groups calls' business; here an
 * account only names the groups it belongs to.
 */

/** The most rows one page of the People list holds. */
export const MAX_PEOPLE_PAGE = 100;

/** An account's id in a path (`admin/people/:id`). */
export const personIdSchema = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const groupName = z.string().min(1).max(100);
const mail = z.email().max(320);
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const personGroupSchema = z.object({
  name: groupName,
  fromProvider: z
    .boolean()
    .describe("true: the identity provider's groupMap gives it at each login (read-only here); false: given by hand"),
});

export const personSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  groups: z.array(personGroupSchema),
  login: z
    .string()
    .describe("How the account logs in: 'native' (name and password) or the single sign-on provider, e.g. 'oidc:corp'"),
  invited: z.boolean().describe('A native account that has not set its first password yet (it cannot log in)'),
  lastLogin: z.number().int().nullable().describe('Epoch ms of the last login; null: none recorded'),
  created: z.number().int().describe('Epoch ms'),
  disabled: z.boolean().describe('A disabled account cannot log in and has no sessions'),
  blockedUntil: z
    .number()
    .int()
    .nullable()
    .describe('Epoch ms until which failed logins block the account from at least one address; null: not blocked'),
});
export type Person = z.infer<typeof personSchema>;

export const peopleSortSchema = z.enum(['name', 'lastLogin', 'created']);

export const peopleQuerySchema = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .describe('Text found anywhere in the name, display name or mail address (case-insensitive)'),
  group: groupName.optional().describe('Only members of this group'),
  blocked: flag.optional().describe('true: only accounts blocked by failed logins; false: only those not blocked'),
  disabled: flag.optional().describe('true: only disabled accounts; false: only enabled ones'),
  login: z.string().min(1).max(64).optional().describe("Only accounts of this login method: 'native' or a provider"),
  sort: peopleSortSchema.default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  offset: queryInt(0, 1_000_000).default(0),
  limit: queryInt(1, MAX_PEOPLE_PAGE).default(50),
});

export const peopleAnswerSchema = z.object({
  people: z.array(personSchema),
  offset: z.number().int(),
  limit: z.number().int(),
  more: z.boolean().describe('Whether rows follow this page (no total is counted: lists may be long)'),
});
export type PeopleAnswer = z.infer<typeof peopleAnswerSchema>;

export const peopleCall = defineCall({
  method: 'GET',
  path: 'admin/people',
  summary: 'Accounts, searched, filtered, sorted and paged (admins)',
  query: peopleQuerySchema,
  response: peopleAnswerSchema,
});

/** What goes with an account when it is removed: the confirmation names these counts. */
export const personBelongingsSchema = z.object({
  bookmarks: z.number().int().min(0),
  shareLinks: z.number().int().min(0),
});

export const personAnswerSchema = z.object({ person: personSchema, belongings: personBelongingsSchema });
export type PersonAnswer = z.infer<typeof personAnswerSchema>;

export const personCall = defineCall({
  method: 'GET',
  path: 'admin/people/:id',
  summary: 'One account with the counts of what would go with it when it is removed (admins)',
  response: personAnswerSchema,
});

export const createPersonBodySchema = z.strictObject({
  name: z.string().min(1).max(256),
  email: mail.describe('Where the invitation goes'),
  displayName: z.string().max(256).optional(),
  groups: z.array(groupName).max(100).default([]),
});

export const createPersonCall = defineCall({
  method: 'POST',
  path: 'admin/people',
  summary: 'Creates a native account without a password and mails it an invitation to set one (admins)',
  body: createPersonBodySchema,
  response: z.object({
    person: personSchema,
    mailSent: z.boolean().describe('false: the invitation could not be sent now (send it again with sendLink)'),
  }),
});

export const updatePersonCall = defineCall({
  method: 'POST',
  path: 'admin/people/:id',
  summary:
    'Changes an account: groups given by hand, display name, mail, disabled; clears its login block; mails it a link (admins)',
  body: z.strictObject({
    groups: z
      .array(groupName)
      .max(100)
      .optional()
      .describe("The groups given by hand (a single sign-on account's provider groups stay as they are)"),
    displayName: z.string().max(256).nullable().optional(),
    email: mail.nullable().optional(),
    disabled: z.boolean().optional().describe('true ends every session of the account at once'),
    unblock: z.literal(true).optional().describe('Forgets the failed logins that block the account'),
    sendLink: z
      .literal(true)
      .optional()
      .describe('Mails a password-reset link (an invitation again while the account has set no password)'),
  }),
  response: z.object({
    person: personSchema,
    mailSent: z.boolean().optional().describe('With sendLink: whether the mail went out'),
  }),
});

export const deletePersonCall = defineCall({
  method: 'DELETE',
  path: 'admin/people/:id',
  summary:
    'Removes an account with its bookmarks, share links and sessions; the counts confirmed must still be true (admins)',
  query: z.object({
    bookmarks: queryInt(0, Number.MAX_SAFE_INTEGER).describe(
      'The bookmarks the admin confirmed (GET admin/people/:id)',
    ),
    shareLinks: queryInt(0, Number.MAX_SAFE_INTEGER).describe('The share links the admin confirmed'),
  }),
  response: z.object({ removed: personBelongingsSchema }),
});
