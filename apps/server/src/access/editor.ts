import { z } from 'zod';
import type { Auth } from '../auth/caller.ts';
import { forbidden, unauthorized } from '../http/errors.ts';

/** The built-in fields an editor may change when the settings name none (`editing.fields`). */
export const DEFAULT_EDITABLE_FIELDS = [
  'title',
  'description',
  'keywords',
  'category',
  'creator',
  'copyright',
  'license',
  'created',
];

/**
 * Who edits the catalogue in the browser and within which limits (docs/editing.md): members of
 * `group` and admins upload files, change metadata, visibility and collections, and use the bin.
 */
export const editingSettingSchema = z
  .object({
    group: z.string().min(1).default('editors').describe('Members of this group (and admins) are editors'),
    fields: z
      .array(z.string().min(1))
      .default(DEFAULT_EDITABLE_FIELDS)
      .describe(
        'Index fields editors may change (besides visibility and collections); `created` is the date of the asset',
      ),
    maxFileMb: z.number().positive().default(4096).describe('The largest file one upload may bring'),
    maxDailyMb: z
      .number()
      .positive()
      .default(51_200)
      .describe('What one editor may upload in a day (since midnight, server time), all files together'),
    uploadExpiryHours: z
      .number()
      .positive()
      .default(24)
      .describe(
        'An upload still unfinished this many hours after it began is removed (its parts too) and no longer counts against the daily amount',
      ),
    writeXmpSidecars: z
      .boolean()
      .default(false)
      .describe(
        'Write the edits of assets imported from a folder into XMP sidecars beside their files (name.ext.xmp), so the folder stays the source of truth for Lightroom, Bridge and the like',
      ),
  })
  .strict()
  .prefault({});
export type EditingSettings = z.infer<typeof editingSettingSchema>;

/**
 * Whether the caller is an editor: an account (not a guest, not a share link's visitor) that is an
 * admin or a member of an editors group (`editing.group`, or the groups the admin area made editors:
 * GroupRights).
 */
export function isEditor(auth: Auth, editorGroups: readonly string[]): boolean {
  if (auth.userId === null || auth.expired || auth.share) return false;
  return auth.isGuiAdmin || auth.groups.some((g) => editorGroups.includes(g));
}

/**
 * 403 for everyone who is not an editor, guests and share links' visitors too (issue #49: the
 * editing calls are refused, not offered a login); 401 only for a session that has ended.
 */
export function requireEditor(auth: Auth, editorGroups: readonly string[]): void {
  if (isEditor(auth, editorGroups)) return;
  throw auth.expired ? unauthorized() : forbidden('Only editors may change the catalogue.');
}
