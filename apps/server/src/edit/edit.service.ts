import type { z } from 'zod';
import { builtInFields } from '@vitrine/contract/fields';
import type {
  binListCall,
  editAssetCall,
  EditBatch,
  editBodySchema,
  editHistoryCall,
  editOptionsCall,
  editPreviewCall,
  idsBodySchema,
} from '@vitrine/contract/edit';
import type { AccessService } from '../access/access.service.ts';
import { requireEditor } from '../access/editor.ts';
import { declaredFields } from '../access/field-audience.ts';
import type { Auth } from '../auth/caller.ts';
import { requireGuiAdmin } from '../auth/caller.ts';
import {
  ACCESS_GROUPS,
  COLLECTIONS,
  CREATED,
  listValues,
  sameValues,
  STATUS,
  type FieldValues,
} from '../catalogue/edit-overlay.ts';
import { importedExtensions } from '../catalogue/file-types.ts';
import { conflict, notFound, validation } from '../http/errors.ts';
import { GroupRights } from '../access/group-rights.ts';
import type { Settings } from '../settings.ts';
import type { Account, AssetFields, CurrentAsset, EditRepository } from './edit.repository.ts';

type EditBody = z.output<typeof editBodySchema>;
type Change = EditBody['changes'][number];
type Options = z.input<(typeof editOptionsCall)['response']>;
type OptionField = Options['fields'][number];

/** An editable field as the editing calls treat it. */
interface EditableField extends OptionField {
  /** A declared number field: its values must be numbers. */
  numeric: boolean;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const toIds = (ids: readonly string[]): number[] => [...new Set(ids.map(Number))];

/** The account a change is recorded under. */
const accountOf = (auth: Auth): Account => ({ id: auth.userId, name: auth.name });

/**
 * Editing of the catalogue in the browser (docs/editing.md, decision 0250): editors (access/editor.ts)
 * change fields, visibility and collections of the assets they may see, move them to the bin and
 * back, and undo any change; admins also reset a field to the file's value and remove binned assets
 * for good. Every change is one batch in the history.
 */
export class EditService {
  constructor(
    private readonly edits: EditRepository,
    private readonly access: AccessService,
    private readonly settings: Settings,
    /** The catalogue's content languages (a localised field's values are kept per language). */
    private readonly contentLanguages: () => Promise<readonly string[]>,
    /** What the caller uploaded today (the uploads' daily limit). */
    private readonly uploadedToday: (auth: Auth) => Promise<number> = async () => 0,
    /**
     * Told of each edit, undo and reset once written (XMP sidecars of edited assets): the batch, or
     * the asset whose field a reset handed back without a batch (its values were the file's already).
     */
    private readonly onWritten: (written: { batch: number } | { assets: number[] }) => Promise<void> = async () =>
      undefined,
    /** The groups and their rights in force (editors, the names visibility may give). */
    private readonly rights: GroupRights = new GroupRights(settings.file),
  ) {}

  private async written<R extends { batch: EditBatch | null }>(result: R): Promise<R> {
    if (result.batch) await this.onWritten({ batch: result.batch.id });
    return result;
  }

  private editor(auth: Auth): void {
    requireEditor(auth, this.rights.current().editorGroups);
  }

  private admin(auth: Auth): void {
    this.editor(auth);
    requireGuiAdmin(auth);
  }

  /** The fields the caller may edit: the editable index fields it may see, and the three pseudo-fields. */
  private fields(auth: Auth): Map<string, EditableField> {
    const hidden = this.access.hiddenFields(auth);
    const known = [...builtInFields, ...declaredFields(this.settings.file.fields)];
    const out = new Map<string, EditableField>();
    for (const name of this.settings.file.editing.fields) {
      if (hidden.has(name)) continue;
      if (name === CREATED) {
        out.set(name, {
          field_name: name,
          type: 'date',
          multiValued: false,
          localized: false,
          vocabulary: false,
          numeric: false,
        });
        continue;
      }
      const f = known.find((k) => k.field_name === name);
      // Columns other than the date are the file's own facts (size, pixels, format), not editable.
      if (!f || ('storage' in f && f.storage !== 'value') || f.field_name === 'meta_collections') continue;
      const localized = 'localized' in f && f.localized === true;
      const numeric = f.type === 'int' || f.type === 'float';
      out.set(name, {
        field_name: name,
        type:
          f.type === 'date'
            ? 'date'
            : numeric
              ? 'number'
              : f.multi_valued
                ? 'keywords'
                : name === 'description' || f.type === 'text'
                  ? 'longtext'
                  : 'text',
        multiValued: f.multi_valued,
        localized,
        vocabulary: f.is_facet && !f.range_facet,
        numeric,
      });
    }
    out.set(ACCESS_GROUPS, {
      field_name: ACCESS_GROUPS,
      type: 'groups',
      multiValued: true,
      localized: false,
      vocabulary: false,
      numeric: false,
    });
    out.set(COLLECTIONS, {
      field_name: COLLECTIONS,
      type: 'collections',
      multiValued: true,
      localized: false,
      vocabulary: false,
      numeric: false,
    });
    return out;
  }

  async options(auth: Auth): Promise<Options> {
    this.editor(auth);
    const editing = this.settings.file.editing;
    return {
      fields: [...this.fields(auth).values()].map(({ numeric: _n, ...f }) => f),
      languages: [...(await this.contentLanguages())],
      groups: this.rights.current().names(),
      collections: await this.edits.collections(),
      upload: {
        maxFileBytes: Math.round(editing.maxFileMb * 1024 * 1024),
        maxDailyBytes: Math.round(editing.maxDailyMb * 1024 * 1024),
        usedTodayBytes: await this.uploadedToday(auth),
        extensions: [...importedExtensions],
      },
      canRemove: auth.isGuiAdmin,
    };
  }

  async asset(auth: Auth, input: { id: string }): Promise<z.input<(typeof editAssetCall)['response']>> {
    this.editor(auth);
    const id = Number(input.id);
    await this.access.requireEditable(auth, [id], true);
    const fields = this.fields(auth);
    const current = (await this.edits.current([id], [...fields.keys()])).get(id);
    if (!current) throw notFound(`The asset ${id}`);
    const edited = await this.edits.edits(id);
    return {
      id: String(id),
      filename: current.filename,
      status: current.status === 'bin' ? 'bin' : 'active',
      fields: Object.fromEntries(current.fields),
      edited: Object.fromEntries(
        edited.filter((e) => fields.has(e.field)).map((e) => [e.field, { by: e.by, at: new Date(e.at).toISOString() }]),
      ),
    };
  }

  /** Checks every change against the caller's editable fields; the first wrong one is a 400 naming it. */
  private async check(auth: Auth, body: EditBody): Promise<Map<string, EditableField>> {
    const fields = this.fields(auth);
    const languages = await this.contentLanguages();
    const groups = new Set(this.rights.current().names());
    const collectionIds: number[] = [];
    for (const [i, c] of body.changes.entries()) {
      const at = (key: string) => `changes.${i}.${key}`;
      const wrong = (key: string, message: string) =>
        validation(`Change ${i + 1}: ${message}`, [{ path: at(key), message }]);
      const f = fields.get(c.field);
      if (!f) throw wrong('field', `'${c.field}' is not a field you may edit`);
      if (c.lang !== '' && !f.localized)
        throw wrong('lang', `'${c.field}' is not kept per language: leave the language empty`);
      if (c.lang !== '' && !languages.includes(c.lang))
        throw wrong('lang', `'${c.lang}' is not a content language (${languages.join(', ')})`);
      if (c.op === 'replace' && c.find === undefined) throw wrong('find', 'replace needs the text to find');
      if (c.op !== 'replace' && c.find !== undefined) throw wrong('find', `find belongs only to replace, not ${c.op}`);
      if ((c.op === 'add' || c.op === 'remove') && !f.multiValued)
        throw wrong('op', `'${c.field}' holds one value: use set or replace, not ${c.op}`);
      if (c.op === 'set' && !f.multiValued && c.values.length > 1)
        throw wrong('values', `'${c.field}' holds one value, not ${c.values.length}`);
      if (c.op === 'replace' && c.values.length !== 1) throw wrong('values', 'replace needs one value to put in');
      for (const v of c.values) {
        if (f.type === 'date' && !(ISO_DATE.test(v) && !Number.isNaN(Date.parse(v))))
          throw wrong('values', `'${v}' is not a date in ISO 8601 form (2026-12-06 or 2026-12-06T10:00:00Z)`);
        if (f.numeric && !Number.isFinite(Number(v))) throw wrong('values', `'${v}' is not a number`);
        if (f.type === 'groups' && !groups.has(v)) throw wrong('values', `'${v}' is not a configured user group`);
        if (f.type === 'collections') {
          if (!/^[1-9]\d{0,15}$/.test(v)) throw wrong('values', `'${v}' is not a collection id`);
          collectionIds.push(Number(v));
        }
      }
      if (f.type === 'date' && c.op === 'replace') throw wrong('op', 'a date is set, not replaced');
      if ((f.type === 'groups' || f.type === 'collections') && c.op === 'replace')
        throw wrong('op', `'${c.field}' is changed with set, add or remove, not replace`);
    }
    if (collectionIds.length > 0) {
      const found = await this.edits.existingCollections(collectionIds);
      const missing = collectionIds.find((id) => !found.has(id));
      if (missing !== undefined) {
        const i = body.changes.findIndex((c) => c.field === COLLECTIONS && c.values.includes(String(missing)));
        throw validation(`Change ${i + 1}: the collection ${missing} does not exist`, [
          { path: `changes.${i}.values`, message: `the collection ${missing} does not exist` },
        ]);
      }
    }
    return fields;
  }

  /** The changes with the date in one form (ISO 8601 in UTC, to the millisecond, as it is kept). */
  private normalised(body: EditBody): Change[] {
    return body.changes.map((c) =>
      c.field === CREATED ? { ...c, values: c.values.map((v) => new Date(Date.parse(v)).toISOString()) } : c,
    );
  }

  async preview(auth: Auth, body: EditBody): Promise<z.input<(typeof editPreviewCall)['response']>> {
    this.editor(auth);
    const ids = toIds(body.ids);
    await this.access.requireEditable(auth, ids);
    await this.check(auth, body);
    const changes = this.normalised(body);
    const fields = [...new Set(changes.map((c) => c.field))];
    const current = await this.edits.current(ids, fields);
    const perChange = changes.map(() => 0);
    let changing = 0;
    for (const asset of current.values()) {
      const state = new Map([...asset.fields].map(([f, v]) => [f, { ...v }]));
      for (const [i, c] of changes.entries()) {
        const before = state.get(c.field) ?? {};
        const after = applyChange(before, c);
        if (!sameValues(before, after)) perChange[i]!++;
        state.set(c.field, after);
      }
      if (fields.some((f) => !sameValues(asset.fields.get(f) ?? {}, state.get(f) ?? {}))) changing++;
    }
    return { assets: current.size, changing, perChange };
  }

  async apply(auth: Auth, body: EditBody): Promise<{ batch: EditBatch | null; changed: number }> {
    this.editor(auth);
    const ids = toIds(body.ids);
    await this.access.requireEditable(auth, ids);
    await this.check(auth, body);
    const changes = this.normalised(body);
    const fields = [...new Set(changes.map((c) => c.field))];
    const result = await this.edits.apply({
      kind: 'edit',
      account: accountOf(auth),
      ids,
      fields,
      overlay: 'edit',
      next: (asset) => {
        const state: AssetFields = new Map(asset.fields);
        for (const c of changes) state.set(c.field, applyChange(state.get(c.field) ?? {}, c));
        // An asset of no group is seen by nobody, its editors included, who could not even undo it.
        const groups = state.get(ACCESS_GROUPS);
        if (groups && (groups['']?.length ?? 0) === 0) {
          const i = changes.findIndex((c) => c.field === ACCESS_GROUPS);
          throw validation(`Change ${i + 1}: the asset ${asset.id} would have no access group left`, [
            { path: `changes.${i}.values`, message: 'an asset needs at least one access group' },
          ]);
        }
        return state;
      },
    });
    return this.written(result);
  }

  /** Moves assets to the bin, or brings them back. */
  async setStatus(
    auth: Auth,
    body: z.output<typeof idsBodySchema>,
    to: 'bin' | 'active',
  ): Promise<{ batch: EditBatch | null; changed: number }> {
    this.editor(auth);
    const ids = toIds(body.ids);
    await this.access.requireEditable(auth, ids, true);
    return this.edits.apply({
      kind: to === 'bin' ? 'bin' : 'restore',
      account: accountOf(auth),
      ids,
      fields: [STATUS],
      overlay: 'none',
      next: () => new Map([[STATUS, listValues([to])]]),
    });
  }

  async binList(
    auth: Auth,
    query: { start: number; rows: number },
  ): Promise<z.input<(typeof binListCall)['response']>> {
    this.editor(auth);
    return this.edits.binned(this.access.editGroups(auth), query.start, query.rows);
  }

  /** Removes binned assets for good (admins); an asset not in the bin is refused, nothing removed. */
  async remove(auth: Auth, body: z.output<typeof idsBodySchema>): Promise<{ removed: number }> {
    this.admin(auth);
    const ids = toIds(body.ids);
    await this.access.requireEditable(auth, ids, true);
    const current = await this.edits.current(ids, [STATUS]);
    const active = ids.find((id) => current.get(id)?.status !== 'bin');
    if (active !== undefined)
      throw validation(`The asset ${active} is not in the bin: move it to the bin first.`, [
        { path: 'ids', message: `the asset ${active} is not in the bin` },
      ]);
    const { changed } = await this.edits.apply({
      kind: 'remove',
      account: accountOf(auth),
      ids,
      fields: [STATUS],
      overlay: 'none',
      remove: true,
      next: (asset) => (asset.status === 'bin' ? new Map([[STATUS, {}]]) : undefined),
    });
    return { removed: changed };
  }

  async history(auth: Auth, input: { id: string }): Promise<z.input<(typeof editHistoryCall)['response']>> {
    this.editor(auth);
    const id = Number(input.id);
    await this.access.requireEditable(auth, [id], true);
    return { entries: await this.edits.history(id) };
  }

  /**
   * Undoes a batch as a new batch: each asset's field goes back to its value before where it still
   * has the batch's value after; the other assets are skipped (changed since, or not editable).
   */
  async undo(
    auth: Auth,
    body: { batch: number },
  ): Promise<{ batch: EditBatch | null; undone: number; skipped: number }> {
    this.editor(auth);
    const batch = await this.edits.batch(body.batch);
    if (!batch) throw notFound(`The batch ${body.batch}`);
    const changes = await this.edits.changesOf(batch.id);
    const named = [...new Set(changes.map((c) => c.asset_id))];
    const editable = await this.access.editableIds(auth, named, true);
    // A batch of none of the caller's assets is not the caller's to see.
    if (editable.size === 0) throw notFound(`The batch ${body.batch}`);
    if (batch.undoneBy !== null)
      throw conflict(`The batch ${batch.id} was undone already (by batch ${batch.undoneBy}); undo that one instead.`);
    if (batch.kind === 'remove') throw conflict('Assets removed for good cannot be brought back.');
    const byAsset = new Map<number, typeof changes>();
    for (const c of changes) {
      if (!editable.has(c.asset_id)) continue;
      const list = byAsset.get(c.asset_id);
      if (list) list.push(c);
      else byAsset.set(c.asset_id, [c]);
    }
    const result = await this.edits.apply({
      kind: 'undo',
      account: accountOf(auth),
      ids: [...byAsset.keys()],
      fields: [...new Set(changes.map((c) => c.field))],
      overlay: 'edit',
      undoOf: batch.id,
      next: (asset: CurrentAsset) => {
        const own = byAsset.get(asset.id) ?? [];
        // Set back only when every field the batch changed still holds what the batch put there.
        if (!own.every((c) => sameValues(asset.fields.get(c.field) ?? {}, c.after ?? {}))) return undefined;
        return new Map(
          own.map((c): [string, FieldValues] => [c.field, c.before ?? (c.field === STATUS ? listValues(['bin']) : {})]),
        );
      },
    });
    await this.written(result);
    return { batch: result.batch, undone: result.changed, skipped: named.length - result.changed };
  }

  /** Gives an edited field of an asset back the file's value (admins): the next import updates it again. */
  async reset(auth: Auth, body: { id: string; field: string }): Promise<{ batch: EditBatch | null }> {
    this.admin(auth);
    const id = Number(body.id);
    await this.access.requireEditable(auth, [id], true);
    const mark = (await this.edits.edits(id)).find((e) => e.field === body.field);
    if (!mark)
      throw validation(`The field '${body.field}' of the asset ${id} is not edited.`, [
        { path: 'field', message: `'${body.field}' is not an edited field of this asset` },
      ]);
    const { batch } = await this.edits.apply({
      kind: 'reset',
      account: accountOf(auth),
      ids: [id],
      fields: [body.field],
      overlay: 'reset',
      next: () => new Map([[body.field, mark.imported]]),
    });
    // The values were the file's already: only the mark goes.
    if (!batch) {
      await this.edits.dropMark(id, body.field);
      await this.onWritten({ assets: [id] });
    }
    return this.written({ batch });
  }
}

/** One change applied to a field's values (decision 0250, the contract's `op`). */
export function applyChange(before: FieldValues, c: Change): FieldValues {
  const after: FieldValues = { ...before };
  const own = before[c.lang] ?? [];
  switch (c.op) {
    case 'set':
      after[c.lang] = [...c.values];
      break;
    case 'add':
      after[c.lang] = [...own, ...c.values.filter((v, i) => !own.includes(v) && c.values.indexOf(v) === i)];
      break;
    case 'remove':
      after[c.lang] = own.filter((v) => !c.values.includes(v));
      break;
    case 'replace': {
      const find = c.find ?? '';
      const put = c.values[0] ?? '';
      after[c.lang] = own.map((v) => v.split(find).join(put));
      break;
    }
  }
  if (after[c.lang]?.length === 0) delete after[c.lang];
  return after;
}
