import { z } from 'zod';
import { defineCall, queryInt } from './call.ts';
import { MAX_BIN_ROWS, MAX_EDIT_ASSETS } from './endpoints.ts';

/**
 * Editors (docs/editing.md): members of the editors group (settings `editing.group`, default
 * `editors`) and admins put assets in (uploads, through the tus protocol at `upload/files`) and
 * correct them: metadata of one asset or of a selection, visibility, collections, the bin. Every
 * change is one batch in the history, with who, when and the values before and after, and can be
 * undone. Edits are an overlay over the imported values, kept per field: a later import of a changed
 * file updates only the fields nobody edited. Every call here answers 401 to a guest, 403 to a caller
 * who is not an editor, and 404 for an asset the caller may not see.
 */

const assetId = z.string().regex(/^[1-9]\d{0,15}$/, 'an asset id');
const isoDate = z.iso.datetime({ offset: true });

/**
 * What an editor may change besides the editable index fields: `created` (the asset's date, ISO
 * 8601), `access_groups` (who sees the asset) and `collections` (DAM collection ids, as strings).
 */
export const EDIT_PSEUDO_FIELDS = ['created', 'access_groups', 'collections'] as const;

/** A field's values per content language ('' for values without a language). */
export const fieldValuesSchema = z.record(z.string().max(35), z.array(z.string()));
export type FieldValues = z.infer<typeof fieldValuesSchema>;

export const editOpSchema = z
  .enum(['set', 'add', 'remove', 'replace'])
  .describe(
    'set: the values become `values`; add: `values` are added (multi-valued fields); remove: `values` are taken out; replace: `find` is replaced by `values[0]` inside every value',
  );
export type EditOp = z.infer<typeof editOpSchema>;

export const fieldChangeSchema = z.strictObject({
  field: z.string().min(1).max(64).describe('An editable index field, or created, access_groups, collections'),
  lang: z.string().max(35).default('').describe("A content language of a localised field; '' for the others"),
  op: editOpSchema,
  values: z.array(z.string().max(10_000)).max(1000).default([]),
  find: z.string().min(1).max(1000).optional().describe('For replace: the text replaced'),
});
export type FieldChange = z.input<typeof fieldChangeSchema>;

export const editBodySchema = z.strictObject({
  ids: z.array(assetId).min(1).max(MAX_EDIT_ASSETS),
  changes: z.array(fieldChangeSchema).min(1).max(50),
});
export type EditBody = z.input<typeof editBodySchema>;

export const batchKindSchema = z.enum(['upload', 'edit', 'bin', 'restore', 'undo', 'reset', 'remove']);
export type BatchKind = z.infer<typeof batchKindSchema>;

/** One entry of the history: a change of one or many assets, made and undone as one. */
export const editBatchSchema = z.object({
  id: z.number().int(),
  kind: batchKindSchema,
  by: z.string().nullable().describe('The account that made it'),
  at: isoDate,
  assets: z.number().int().describe('How many assets it changed'),
  fields: z.array(z.string()).describe('The fields it changed'),
  undoOf: z.number().int().nullable().describe('The batch this one undid'),
  undoneBy: z.number().int().nullable().describe('The batch that undid this one'),
});
export type EditBatch = z.infer<typeof editBatchSchema>;

export const editOptionsCall = defineCall({
  method: 'GET',
  path: 'edit/options',
  summary: 'What an editor may change: the editable fields, content languages, groups, collections and upload limits',
  response: z.object({
    fields: z.array(
      z.object({
        field_name: z.string(),
        type: z.enum(['text', 'longtext', 'keywords', 'date', 'number', 'groups', 'collections']),
        multiValued: z.boolean(),
        localized: z.boolean().describe('Values are kept per content language'),
        vocabulary: z.boolean().describe('A facet: offer the values it knows'),
      }),
    ),
    languages: z.array(z.string()).describe('The content languages'),
    groups: z.array(z.string()).describe('The user groups an asset can be made visible to'),
    collections: z.array(z.object({ id: z.number().int(), name: z.string(), path: z.string() })),
    upload: z.object({
      maxFileBytes: z.number().int(),
      maxDailyBytes: z.number().int(),
      usedTodayBytes: z.number().int().describe("What the caller uploaded since midnight (the server's time)"),
      extensions: z.array(z.string()).describe('File name extensions the import reads, without the dot'),
    }),
    canRemove: z.boolean().describe('Whether the caller may remove assets from the bin for good (admins)'),
  }),
});

export const editAssetCall = defineCall({
  method: 'GET',
  path: 'edit/asset',
  summary:
    "One asset's editable values as they are now, which fields were edited (by whom, when), its visibility and collections",
  query: z.object({ id: assetId }),
  response: z.object({
    id: z.string(),
    filename: z.string(),
    status: z.enum(['active', 'bin']),
    fields: z.record(z.string(), fieldValuesSchema),
    edited: z.record(z.string(), z.object({ by: z.string().nullable(), at: isoDate })),
  }),
});

export const editPreviewCall = defineCall({
  method: 'POST',
  path: 'edit/preview',
  summary: 'How many of the assets an edit would change, per change, without changing anything',
  body: editBodySchema,
  response: z.object({
    assets: z.number().int().describe('Assets named that the caller may edit'),
    changing: z.number().int().describe('Assets whose values the edit changes'),
    perChange: z.array(z.number().int()).describe('Assets each change changes, in the order of `changes`'),
  }),
});

export const editApplyCall = defineCall({
  method: 'POST',
  path: 'edit/apply',
  summary: 'Change fields, visibility or collections of one asset or many: one batch in the history',
  body: editBodySchema,
  response: z.object({
    batch: editBatchSchema.nullable().describe('null when nothing changed'),
    changed: z.number().int(),
  }),
});

export const idsBodySchema = z.strictObject({ ids: z.array(assetId).min(1).max(MAX_EDIT_ASSETS) });

export const binAssetsCall = defineCall({
  method: 'POST',
  path: 'edit/bin',
  summary: 'Move assets to the bin: they leave the portal at once, and a restore brings them back',
  body: idsBodySchema,
  response: z.object({ batch: editBatchSchema.nullable(), changed: z.number().int() }),
});

export const restoreAssetsCall = defineCall({
  method: 'POST',
  path: 'edit/restore',
  summary: 'Bring assets back from the bin',
  body: idsBodySchema,
  response: z.object({ batch: editBatchSchema.nullable(), changed: z.number().int() }),
});

export const binListCall = defineCall({
  method: 'GET',
  path: 'edit/bin',
  summary: 'The assets in the bin that the caller may edit, latest first',
  query: z.object({ start: queryInt(0, 1_000_000).default(0), rows: queryInt(1, MAX_BIN_ROWS).default(50) }),
  response: z.object({
    total: z.number().int(),
    assets: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        filename: z.string(),
        binnedBy: z.string().nullable(),
        binnedAt: isoDate.nullable(),
      }),
    ),
  }),
});

export const removeAssetsCall = defineCall({
  method: 'POST',
  path: 'edit/remove',
  summary:
    'Remove assets in the bin for good (admins): the catalogue forgets them; their files stay where they were imported from',
  body: idsBodySchema,
  response: z.object({ removed: z.number().int() }),
});

export const editHistoryCall = defineCall({
  method: 'GET',
  path: 'edit/history',
  summary: "An asset's history, latest first: each change with who, when, and the values before and after",
  query: z.object({ id: assetId }),
  response: z.object({
    entries: z.array(
      z.object({
        batch: editBatchSchema,
        changes: z.array(
          z.object({
            field: z.string().describe('A field, created, access_groups, collections, or status'),
            before: fieldValuesSchema.nullable(),
            after: fieldValuesSchema.nullable(),
          }),
        ),
      }),
    ),
  }),
});

export const undoEditCall = defineCall({
  method: 'POST',
  path: 'edit/undo',
  summary:
    'Undo a batch (itself a new batch): each asset gets back its values from before, unless a later change altered them since',
  body: z.strictObject({ batch: z.number().int().min(1) }),
  response: z.object({
    batch: editBatchSchema.nullable(),
    undone: z.number().int().describe('Assets set back'),
    skipped: z.number().int().describe('Assets left as they are: changed again since, or no longer editable'),
  }),
});

export const resetFieldCall = defineCall({
  method: 'POST',
  path: 'edit/reset',
  summary: "Give an edited field of an asset back the file's value (admins); the next import updates it again",
  body: z.strictObject({ id: assetId, field: z.string().min(1).max(64) }),
  response: z.object({ batch: editBatchSchema.nullable() }),
});

export const createCollectionCall = defineCall({
  method: 'POST',
  path: 'edit/collection',
  summary: 'Make a DAM collection for uploads (or answer the one of that name under the same parent)',
  body: z.strictObject({
    name: z.string().trim().min(1).max(200),
    parent: z.number().int().min(1).optional(),
  }),
  response: z.object({ id: z.number().int(), name: z.string(), path: z.string() }),
});

/**
 * Uploads: the tus protocol (https://tus.io/protocols/resumable-upload) at API_BASE_PATH +
 * UPLOAD_PATH. `Upload-Metadata` carries `filename`, `collection` (a DAM collection id) and
 * optionally `relativePath` (the file's path inside a dropped folder, which becomes collections under
 * `collection`). When the last byte arrives the file goes through the import pipeline; the answer to
 * that last request carries the new asset's id in the header UPLOAD_ASSET_HEADER, or a 422 with the
 * import's reason.
 */
// Kept in endpoints.ts, which the browser imports without the schemas.
export { MAX_BIN_ROWS, MAX_EDIT_ASSETS, UPLOAD_ASSET_HEADER, UPLOAD_PATH } from './endpoints.ts';
