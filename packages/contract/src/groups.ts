import { z } from 'zod';
import { defineCall, queryInt } from './call.ts';

/**
 * User groups and their rights in the admin area (issue #50, docs/security.md "Groups: the admin
 * area and the settings file"). A fresh install's groups come from the settings file; the first save
 * in the admin area stores them all, and from then on the stored groups replace the file's as a
 * whole (decision 0260). Every call is the admins'.
 */

/** A group's name: letters, digits, spaces, dots, dashes and underscores; no commas (lists on the command line). */
export const groupNameSchema = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u, 'must be 1–64 letters, digits, spaces, dots, dashes or underscores');

/** What a group's members may do. */
export const groupRightsSchema = z.strictObject({
  portalAccess: z.boolean().describe('Members may use the portal (search, look, download)'),
  guiAdmin: z.boolean().describe('Members are admins: they configure the portal and manage people and groups'),
  downloadSets: z
    .array(z.number().int().min(0))
    .max(200)
    .describe('Conversion sets members may download in (0: the original file)'),
  shareLinks: z.boolean().describe('Members may make share links for people without an account'),
  editors: z.boolean().describe('Members are editors: they upload, edit metadata and visibility, use the bin'),
  fields: z
    .array(z.string().min(1).max(100))
    .max(500)
    .describe('Of the audience-limited fields (the settings file marks them), those members see'),
});
export type GroupRights = z.infer<typeof groupRightsSchema>;

export const groupSchema = groupRightsSchema.extend({ name: z.string() });
export type Group = z.infer<typeof groupSchema>;

const count = z.number().int().min(0);

/** A group as the admin screen lists it: its rights and what names it. */
export const groupEntrySchema = groupSchema.extend({
  accounts: count.describe('Accounts that are members'),
  assets: count.describe('Assets whose access list names the group (they are visible to its members)'),
  conversionSets: z.array(z.number().int()).describe('Conversion sets whose userGroups (settings file) name it'),
  settings: z
    .array(z.string())
    .describe('Keys of the settings file that name it (guest.groups, catalogue.defaultAccessGroups, sso …)'),
});
export type GroupEntry = z.infer<typeof groupEntrySchema>;

export const groupListSchema = z.object({
  source: z
    .enum(['settings', 'admin'])
    .describe(
      "'settings': no group was saved in the admin area yet, the settings file decides; 'admin': the saved groups do",
    ),
  /** The history entry of the groups in force; null while the settings file decides. */
  version: z.number().int().nullable(),
  groups: z.array(groupEntrySchema),
  /** Fields the settings file limits to an audience: the names a group's `fields` may hold. */
  audienceFields: z.array(z.string()),
  /** Conversion sets a group's `downloadSets` may name (0, the original file, always). */
  conversionSets: z.array(z.object({ id: z.number().int(), title: z.string() })),
});
export type GroupList = z.infer<typeof groupListSchema>;

export const listGroupsCall = defineCall({
  method: 'GET',
  path: 'admin/groups',
  summary: 'The user groups with their rights and how many accounts and assets name each (admins)',
  response: groupListSchema,
});

/** A new group: rights left out default to portal access and the original file only. */
export const createGroupBodySchema = z.strictObject({
  name: groupNameSchema,
  portalAccess: groupRightsSchema.shape.portalAccess.default(true),
  guiAdmin: groupRightsSchema.shape.guiAdmin.default(false),
  downloadSets: groupRightsSchema.shape.downloadSets.default([0]),
  shareLinks: groupRightsSchema.shape.shareLinks.default(false),
  editors: groupRightsSchema.shape.editors.default(false),
  fields: groupRightsSchema.shape.fields.default([]),
});

export const createGroupCall = defineCall({
  method: 'POST',
  path: 'admin/groups',
  summary: 'Create a user group (admins); rights left out default to portal access and the original file only',
  body: createGroupBodySchema,
  response: groupListSchema,
});

/** A change of a group: the rights it names, and a new name. */
export const changeGroupBodySchema = groupRightsSchema
  .partial()
  .extend({ name: groupNameSchema.optional().describe('The new name') });

export const changeGroupCall = defineCall({
  method: 'POST',
  path: 'admin/groups/:name',
  summary:
    'Change a group’s rights or rename it (admins); a rename renames it for its accounts and is refused while assets or the settings file name it',
  body: changeGroupBodySchema,
  response: groupListSchema,
});

export const removeGroupCall = defineCall({
  method: 'DELETE',
  path: 'admin/groups/:name',
  summary:
    'Remove a group (admins); refused (409) while accounts, assets, conversion sets or the settings file name it',
  response: groupListSchema,
});

export const groupVersionSchema = z.object({
  id: z.number().int(),
  saved_by: z.string(),
  saved_at: z.string().describe('ISO 8601'),
  /** The history entry this save restored, when it was a rollback. */
  restored_from: z.number().int().nullable(),
  groups: z.array(z.string()).describe('The names of the groups of this version'),
});
export type GroupVersion = z.infer<typeof groupVersionSchema>;

export const groupHistoryCall = defineCall({
  method: 'GET',
  path: 'admin/groups/history',
  summary: 'Saved versions of the groups, newest first (admins)',
  query: z.object({ limit: queryInt(1, 200).default(50) }),
  response: z.object({ versions: z.array(groupVersionSchema) }),
});

export const groupRollbackCall = defineCall({
  method: 'POST',
  path: 'admin/groups/rollback/:id',
  summary: 'Save an earlier version of the groups again, as a new version (admins)',
  response: groupListSchema,
});
