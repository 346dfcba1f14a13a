import { z } from 'zod';
import { defineCall, queryInt } from './call.ts';
import { MAX_DUPLICATE_GROUPS } from './endpoints.ts';

/**
 * Assets that look alike (issue #52). "Similar" and the colour search are terms of the search call's
 * query (`similar:<assetId>`, `colour:#rrggbb`); the duplicates report is the editors' own call: it
 * answers 403 to a guest and to a caller who is not an editor, like the editing calls (edit.ts).
 */

const isoDate = z.iso.datetime({ offset: true });

export const duplicateMemberSchema = z.object({
  id: z.string(),
  /** In the caller's content language; absent when the asset has none or the caller may not see the field. */
  title: z.string().optional(),
  filename: z.string().optional(),
  format: z.string().optional(),
  /** Pixel size of the original. */
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  /** Bytes of the original. */
  fileSize: z.number().optional(),
  /** The asset's date (when the picture was taken or made). */
  created: isoDate.optional(),
  /** When it came into the catalogue. */
  added: isoDate.optional(),
  collections: z.array(z.object({ id: z.number().int(), name: z.string() })),
  thumbnail: z.string().optional().describe('Signed thumbnail URL'),
});
export type DuplicateMember = z.infer<typeof duplicateMemberSchema>;

export const duplicateGroupSchema = z.object({
  /** `exact`: the same file (checksum); `near`: near copies (re-encoded, resized, recompressed, …). */
  kind: z.enum(['exact', 'near']),
  members: z.array(duplicateMemberSchema),
});
export type DuplicateGroup = z.infer<typeof duplicateGroupSchema>;

export const duplicatesCall = defineCall({
  method: 'GET',
  path: 'alike/duplicates',
  summary:
    'Groups of duplicates among the assets the caller may edit (editors): exact copies first, then near copies; paged by group',
  query: z.object({
    start: queryInt(0, 1_000_000).default(0),
    rows: queryInt(1, MAX_DUPLICATE_GROUPS).default(20),
  }),
  response: z.object({
    /** Groups in all (exact and near). */
    total: z.number().int(),
    groups: z.array(duplicateGroupSchema),
  }),
});
