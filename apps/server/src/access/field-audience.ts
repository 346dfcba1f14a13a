import { z } from 'zod';
import { builtInFields } from '@vitrine/contract/fields';
import { indexFieldSchema, type IndexField } from '@vitrine/contract/search';
import type { Auth } from '../auth/caller.ts';

/**
 * Field audiences (docs/security.md "Field audiences"): the part of the access rule that decides
 * which index fields a caller receives. A field names the groups that see it (`visibleTo`); without
 * it everyone does, except personal fields, which only account holders see. Callers without an
 * account (guests, and share links' visitors, whatever groups the link's creator has) are judged by
 * the guest groups. A field a caller may not see does not exist for it: it is left out of every
 * answer, and a filter, facet, sort, suggestion or field:value query naming it is treated as one
 * naming an unknown field.
 */

/** The groups personal fields default to: account holders. */
export const ACCOUNT_HOLDERS: readonly string[] = ['users', 'admins'];

/**
 * Fields personal without being marked: positions, serial numbers, owners' and contacts' details.
 * Matched against whole parts of a field's name (gps_lat, camera_serial, owner_name, contact_email).
 */
const PERSONAL_NAME = /(^|_)(gps|serial|serialnumber|owner|contact|email|phone)(_|$)/i;

const audience = {
  visibleTo: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Groups that see the field (default: everyone; personal fields: users and admins)'),
  personal: z.boolean().optional().describe('Personal data: only account holders see it unless visibleTo says more'),
};

const builtInNames = new Set(builtInFields.map((f) => f.field_name));

/**
 * `fields` of the settings file: declared fields in full, or a built-in field's name with only its
 * audience (`{ "field_name": "creator", "visibleTo": ["users"] }`).
 */
export const fieldsSettingSchema = z
  .array(
    z.union([
      indexFieldSchema.extend(audience),
      z.strictObject({ field_name: indexFieldSchema.shape.field_name, ...audience }).superRefine((f, ctx) => {
        if (builtInNames.has(f.field_name)) return;
        ctx.addIssue({
          code: 'custom',
          path: ['field_name'],
          message: `'${f.field_name}' is not a built-in field: declare it in full (default_labels, is_facet, range_facet, multi_valued, origin, type)`,
        });
      }),
    ]),
  )
  .default([]);
export type FieldSetting = z.infer<typeof fieldsSettingSchema>[number];

const isDeclaration = (f: FieldSetting): f is Extract<FieldSetting, { type: unknown }> => 'type' in f;

/**
 * The fields the settings declare beyond the built-in ones, as the index knows them. A declared
 * field only some groups see is kept out of the full-text index (words of it never match for anyone:
 * those who see it find it by field:value), so that a plain word cannot reveal it.
 */
export function declaredFields(fields: readonly FieldSetting[]): (IndexField & { textSearch?: boolean })[] {
  return fields.filter(isDeclaration).map(({ visibleTo: _v, personal: _p, ...f }) => ({
    ...f,
    ...(fieldAudience(fields, f.field_name) ? { textSearch: false } : {}),
  }));
}

/** The groups that see a field; null when everyone does. */
export function fieldAudience(fields: readonly FieldSetting[], name: string): readonly string[] | null {
  const own = fields.find((f) => f.field_name === name);
  if (own?.visibleTo) return own.visibleTo;
  if (own?.personal ?? PERSONAL_NAME.test(name)) return ACCOUNT_HOLDERS;
  return null;
}

/** Of the index's fields, those only some groups see, with those groups. */
export function restrictedFields(
  fields: readonly FieldSetting[],
  names: Iterable<string> = [...builtInNames, ...fields.map((f) => f.field_name)],
): ReadonlyMap<string, readonly string[]> {
  const acc = new Map<string, readonly string[]>();
  for (const name of names) {
    const groups = fieldAudience(fields, name);
    if (groups) acc.set(name, groups);
  }
  return acc;
}

/**
 * Whether a caller counts as one without an account for what it is given of an asset (its fields,
 * and its original's private tags: download.stripPrivateMetadata): a guest, or anyone through a
 * share link, who holds its creator's groups for assets but not for fields.
 */
export function judgedAsGuest(auth: Auth): boolean {
  return auth.userId === null || auth.share !== undefined;
}

/**
 * The fields `auth` may not see. A caller without an account (a guest, or a share link's visitor,
 * who holds its creator's groups for assets but not for fields) is judged by the guest groups.
 */
export function hiddenFieldsOf(
  auth: Auth,
  restricted: ReadonlyMap<string, readonly string[]>,
  guestGroups: readonly string[],
): ReadonlySet<string> {
  const hidden = new Set<string>();
  if (restricted.size === 0) return hidden;
  const groups = judgedAsGuest(auth) ? guestGroups : auth.groups;
  for (const [name, audience] of restricted) if (!audience.some((g) => groups.includes(g))) hidden.add(name);
  return hidden;
}
