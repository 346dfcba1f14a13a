import type { Kysely, Transaction } from 'kysely';
import type { BatchKind, EditBatch } from '@vitrine/contract/edit';
import { editableTo } from '../access/rule.ts';
import type { CatalogueRepository, ChangedValues } from '../catalogue/catalogue.repository.ts';
import { chunks, giveTiles, insertAll, inTurns, TURN_SIZE } from '../catalogue/rows.ts';
import { statementRows } from '../db/write-thread.ts';
import {
  ACCESS_GROUPS,
  canonical,
  COLLECTIONS,
  CREATED,
  createdMs,
  createdValues,
  listValues,
  parseValues,
  sameValues,
  STATUS,
  type FieldValues,
} from '../catalogue/edit-overlay.ts';
import type { WrittenRows } from '../db/catalogue-state.ts';
import type { Db } from '../db/database.ts';
import type { Database, EditBatchTable } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/** Who made a change: the account, kept by id and by name (the name stays when the account goes). */
export interface Account {
  id: number | null;
  name: string | null;
}

/** Each asset's fields as they are now: values per language, by field. */
export type AssetFields = Map<string, FieldValues>;

/** What one asset looks like to a batch: its status and file name, and the fields the batch reads. */
export interface CurrentAsset {
  id: number;
  status: string;
  filename: string;
  fields: AssetFields;
}

/**
 * A batch to write: for each asset the batch reads `fields` of, `next` answers the fields it changes
 * (a field left out, or given its current values, is not changed). `overlay`: 'edit' marks the
 * changed fields edited (asset_edit, keeping the file's values of a first edit), 'reset' drops the
 * mark, 'none' leaves it (the bin).
 */
export interface BatchPlan {
  kind: BatchKind;
  account: Account;
  ids: readonly number[];
  fields: readonly string[];
  next: (asset: CurrentAsset) => AssetFields | undefined;
  overlay: 'edit' | 'reset' | 'none';
  /** The batch this one undoes: marked undone by it. */
  undoOf?: number;
  /** Removes the changed assets for good after recording the batch (edit/remove). */
  remove?: boolean;
}

/** One change of the history: a field of an asset before and after. */
export interface ChangeRow {
  asset_id: number;
  field: string;
  before: FieldValues | null;
  after: FieldValues | null;
}

const batchColumns = ['kind', 'account_id', 'account_name', 'at', 'assets', 'fields', 'undo_of', 'undone_by'];
const changeColumns = ['batch_id', 'asset_id', 'field', 'before', 'after'];

/** A batch row as the contract answers it. */
export function presentBatch(
  row: Pick<EditBatchTable, 'kind' | 'account_name' | 'at' | 'assets' | 'fields'> & {
    id: number | string;
    undo_of: number | string | null;
    undone_by: number | string | null;
  },
): EditBatch {
  return {
    id: Number(row.id),
    kind: row.kind,
    by: row.account_name,
    at: new Date(Number(row.at)).toISOString(),
    assets: Number(row.assets),
    fields: JSON.parse(row.fields) as string[],
    undoOf: row.undo_of === null ? null : Number(row.undo_of),
    undoneBy: row.undone_by === null ? null : Number(row.undone_by),
  };
}

/**
 * The rows of editing (decision 0250): each asset's current values of the fields a batch reads,
 * the batch written with its new values, its history rows and the overlay marks in one transaction
 * (through `CatalogueRepository.changeAssets`, which records the catalogue change and tells the
 * full-text index), the history and the bin. A batch of thousands of assets is a few statements per
 * table (chunks of ids, `insertAll`).
 */
export class EditRepository {
  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueRepository,
  ) {}

  /** The current values of `fields` of the assets (those that exist). */
  async current(
    ids: readonly number[],
    fields: readonly string[],
    trx: Kysely<Database> = this.db.kysely,
  ): Promise<Map<number, CurrentAsset>> {
    const out = new Map<number, CurrentAsset>();
    const indexFields = fields.filter((f) => f !== CREATED && f !== ACCESS_GROUPS && f !== COLLECTIONS && f !== STATUS);
    for await (const some of inTurns([...new Set(ids)], statementRows(trx, TURN_SIZE))) {
      const assets = await trx
        .selectFrom('asset')
        .select(['id', 'status', 'filename', 'created'])
        .where('id', 'in', some)
        .execute();
      for (const a of assets) {
        const own: AssetFields = new Map();
        for (const f of fields) own.set(f, {});
        if (fields.includes(CREATED)) own.set(CREATED, createdValues(a.created));
        if (fields.includes(STATUS)) own.set(STATUS, listValues([a.status]));
        out.set(Number(a.id), { id: Number(a.id), status: a.status, filename: a.filename, fields: own });
      }
      if (indexFields.length > 0) {
        const values = await trx
          .selectFrom('asset_value')
          .select(['asset_id', 'field', 'lang', 'value'])
          .where('asset_id', 'in', some)
          .where('field', 'in', indexFields)
          .orderBy('asset_id')
          .orderBy('field')
          .orderBy('lang')
          .orderBy('ord')
          .execute();
        for (const v of values) {
          const f = out.get(Number(v.asset_id))?.fields.get(v.field);
          if (f) (f[v.lang] ??= []).push(v.value);
        }
      }
      if (fields.includes(ACCESS_GROUPS)) {
        const rows = await trx
          .selectFrom('asset_access')
          .select(['asset_id', 'group_name'])
          .where('asset_id', 'in', some)
          .orderBy('group_name')
          .execute();
        for (const r of rows) {
          const f = out.get(Number(r.asset_id))?.fields.get(ACCESS_GROUPS);
          if (f) (f[''] ??= []).push(r.group_name);
        }
      }
      if (fields.includes(COLLECTIONS)) {
        const rows = await trx
          .selectFrom('asset_collection')
          .select(['asset_id', 'collection_id'])
          .where('asset_id', 'in', some)
          .orderBy('collection_id')
          .execute();
        for (const r of rows) {
          const f = out.get(Number(r.asset_id))?.fields.get(COLLECTIONS);
          if (f) (f[''] ??= []).push(String(r.collection_id));
        }
      }
    }
    return out;
  }

  /**
   * Writes a batch in one transaction: the new values, the overlay marks, the history and the
   * catalogue change. Answers the batch (null when nothing changed: then nothing is written) and the
   * assets it changed.
   */
  async apply(plan: BatchPlan, now = Date.now()): Promise<{ batch: EditBatch | null; changed: number }> {
    return this.catalogue.changeAssets<{ batch: EditBatch | null; changed: number }>(async (trx) => {
      // The full-text index's fields are read with the batch's own: its documents are made from
      // them and the changes, not read back after the write.
      const texts = plan.remove ? [] : this.catalogue.textFields();
      const current = await this.current(plan.ids, [...new Set([...plan.fields, ...texts])], trx);
      const changes: ChangeRow[] = [];
      const batchFields = new Set(plan.fields);
      for await (const some of inTurns([...current.values()]))
        for (const asset of some) {
          const next = plan.next(asset);
          if (!next) continue;
          for (const [field, after] of next) {
            // The full-text fields read besides the batch's own are not the batch's to change.
            if (!batchFields.has(field)) continue;
            const before = asset.fields.get(field) ?? {};
            if (plan.remove) changes.push({ asset_id: asset.id, field, before, after: null });
            else if (!sameValues(before, after)) changes.push({ asset_id: asset.id, field, before, after });
          }
        }
      if (changes.length === 0) return { ids: [], result: { batch: null, changed: 0 } };
      if (!plan.remove) {
        await this.writeValues(trx, changes, now);
        await this.writeOverlay(trx, plan, changes, now);
      }
      const batch = await this.record(trx, plan.kind, plan.account, changes, now, plan.undoOf);
      const ids = [...new Set(changes.map((c) => c.asset_id))];
      if (plan.remove) await this.catalogue.removeAssets(trx, ids);
      // Values only (not the date, visibility, collections or the bin): this process's index takes
      // them as written instead of reading the assets again.
      const fields = [...new Set(changes.map((c) => c.field))];
      let written: ChangedValues | undefined;
      let textRows: WrittenRows | undefined;
      if (!plan.remove && !fields.some((f) => NOT_VALUES.has(f))) {
        // Tens of thousands of rows at a time held the event loop some 40 ms: a part a turn.
        const values: ChangedValues['values'][number][] = [];
        for await (const some of inTurns(changes)) for (const c of some) values.push(...valueRows(c));
        written = { fields, values };
        if (texts.length > 0) textRows = await rowsAfter(current, changes, ids, texts);
      }
      return { ids, result: { batch, changed: ids.length }, written, texts: textRows };
    });
  }

  /**
   * The new effective values where readers read them: values, the date, access, collections, status
   * (dated `now`, the batch's time in the history).
   */
  private async writeValues(trx: Transaction<Database>, changes: readonly ChangeRow[], now: number): Promise<void> {
    const byField = new Map<string, ChangeRow[]>();
    for (const c of changes) {
      const list = byField.get(c.field);
      if (list) list.push(c);
      else byField.set(c.field, [c]);
    }
    for (const [field, list] of byField) {
      const ids = list.map((c) => c.asset_id);
      if (field === CREATED || field === STATUS) {
        // Assets that get the same value are written in one statement (a bulk edit: one).
        const byValue = new Map<string, number[]>();
        for (const c of list) {
          const key = c.after?.['']?.[0] ?? '';
          const same = byValue.get(key);
          if (same) same.push(c.asset_id);
          else byValue.set(key, [c.asset_id]);
        }
        for (const [value, some] of byValue) {
          for await (const part of inTurns(some, statementRows(trx, TURN_SIZE))) {
            // A status change dates the row (the bin lists the latest moved there first).
            const set =
              field === CREATED
                ? { created: value === '' ? null : createdMs({ '': [value] }) }
                : { status: value as 'active' | 'bin', updated_at: now };
            await trx.updateTable('asset').set(set).where('id', 'in', part).execute();
          }
        }
        continue;
      }
      if (field === ACCESS_GROUPS || field === COLLECTIONS) {
        const table = field === ACCESS_GROUPS ? 'asset_access' : 'asset_collection';
        for await (const part of inTurns(ids, statementRows(trx, TURN_SIZE)))
          await trx.deleteFrom(table).where('asset_id', 'in', part).execute();
        const rows = list.flatMap((c) =>
          [...new Set(c.after?.[''] ?? [])].map((v) =>
            field === ACCESS_GROUPS
              ? { asset_id: c.asset_id, group_name: v }
              : { asset_id: c.asset_id, collection_id: Number(v) },
          ),
        );
        await insertAll(
          trx,
          table,
          field === ACCESS_GROUPS ? ['asset_id', 'group_name'] : ['asset_id', 'collection_id'],
          rows,
        );
        if (field === COLLECTIONS) {
          // A collection without a tile takes one of its new members, as the import does.
          const tiles = new Map<number, number>();
          for (const r of rows as { asset_id: number; collection_id: number }[])
            if (!tiles.has(r.collection_id)) tiles.set(r.collection_id, r.asset_id);
          await giveTiles(trx, tiles);
        }
        continue;
      }
      // A change that only appends (a keyword added) keeps the rows it had and inserts the new ones;
      // any other is written anew. Most bulk edits append: a third of the rows to write.
      const rewritten = list.filter((c) => !appends(c.before ?? {}, c.after ?? {}));
      for await (const part of inTurns(
        rewritten.map((c) => c.asset_id),
        statementRows(trx, TURN_SIZE),
      ))
        await trx.deleteFrom('asset_value').where('field', '=', field).where('asset_id', 'in', part).execute();
      const rewrites = new Set(rewritten);
      const rows = list.flatMap((c) => valueRows(c, (lang) => (rewrites.has(c) ? 0 : (c.before?.[lang]?.length ?? 0))));
      for await (const part of inTurns(rows, statementRows(trx, TURN_SIZE * 4)))
        await insertAll(trx, 'asset_value', ['asset_id', 'field', 'lang', 'ord', 'value'], part);
    }
  }

  /** Marks the changed fields edited (a first edit keeps the values it replaced as the file's), or drops the marks. */
  private async writeOverlay(
    trx: Transaction<Database>,
    plan: BatchPlan,
    changes: readonly ChangeRow[],
    now: number,
  ): Promise<void> {
    if (plan.overlay === 'none') return;
    const marked = changes.filter((c) => c.field !== STATUS);
    const byField = new Map<string, ChangeRow[]>();
    for (const c of marked) {
      const list = byField.get(c.field);
      if (list) list.push(c);
      else byField.set(c.field, [c]);
    }
    const rows: Record<string, unknown>[] = [];
    for (const [field, list] of byField) {
      for await (const part of inTurns(
        list.map((c) => c.asset_id),
        statementRows(trx, TURN_SIZE),
      )) {
        const kept = new Map<number, string>();
        if (plan.overlay === 'edit') {
          const existing = await trx
            .selectFrom('asset_edit')
            .select(['asset_id', 'imported'])
            .where('field', '=', field)
            .where('asset_id', 'in', part)
            .execute();
          for (const e of existing) kept.set(Number(e.asset_id), e.imported);
        }
        await trx.deleteFrom('asset_edit').where('field', '=', field).where('asset_id', 'in', part).execute();
        if (plan.overlay === 'reset') continue;
        const before = new Map(list.map((c) => [c.asset_id, c.before]));
        for (const id of part) {
          rows.push({
            asset_id: id,
            field,
            imported: kept.get(id) ?? canonical(before.get(id) ?? {}),
            edited_by: plan.account.name,
            edited_at: now,
          });
        }
      }
    }
    for await (const part of inTurns(rows, statementRows(trx, TURN_SIZE * 2)))
      await insertAll(trx, 'asset_edit', ['asset_id', 'field', 'imported', 'edited_by', 'edited_at'], part);
  }

  /** The batch and its history rows; the undone batch is marked. */
  private async record(
    trx: Kysely<Database>,
    kind: BatchKind,
    account: Account,
    changes: readonly ChangeRow[],
    now: number,
    undoOf?: number,
  ): Promise<EditBatch> {
    const fields = [...new Set(changes.map((c) => c.field))].sort();
    const assets = new Set(changes.map((c) => c.asset_id)).size;
    const [row] = await insertAll<EditBatchTable & { id: number }>(
      trx,
      'edit_batch',
      batchColumns,
      [
        {
          kind,
          account_id: account.id,
          account_name: account.name,
          at: now,
          assets,
          fields: JSON.stringify(fields),
          undo_of: undoOf ?? null,
          undone_by: null,
        },
      ],
      ['id', ...batchColumns],
    );
    const batch = row!;
    for await (const part of inTurns(changes, statementRows(trx, TURN_SIZE * 2)))
      await insertAll(
        trx,
        'edit_change',
        changeColumns,
        part.map((c) => ({
          batch_id: Number(batch.id),
          asset_id: c.asset_id,
          field: c.field,
          before: c.before === null ? null : canonical(c.before),
          after: c.after === null ? null : canonical(c.after),
        })),
      );
    if (undoOf !== undefined) {
      // Checked again under the change's lock: of two undos of one batch at once, the second fails whole.
      const marked = await trx
        .updateTable('edit_batch')
        .set({ undone_by: Number(batch.id) })
        .where('id', '=', undoOf)
        .where('undone_by', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) throw conflict(`The batch ${undoOf} was undone already.`);
    }
    return presentBatch(batch);
  }

  /**
   * Records an upload's import (uploads): an 'upload' batch naming the new assets, each with its
   * status from none to 'active'. Its undo moves them to the bin. In the caller's transaction, or on
   * its own.
   */
  async recordUpload(
    trx: Kysely<Database> | Db,
    account: Account,
    assetIds: readonly number[],
    now = Date.now(),
  ): Promise<EditBatch | null> {
    if (assetIds.length === 0) return null;
    const executor = 'kysely' in trx ? trx.kysely : trx;
    const changes = [...new Set(assetIds)].map((id) => ({
      asset_id: id,
      field: STATUS,
      before: null,
      after: listValues(['active']),
    }));
    return this.record(executor, 'upload', account, changes, now);
  }

  /** Drops the edited mark of a field (a reset whose values were the file's already). */
  async dropMark(assetId: number, field: string): Promise<void> {
    await this.db.kysely.deleteFrom('asset_edit').where('asset_id', '=', assetId).where('field', '=', field).execute();
  }

  /** Where the assets' originals were imported from (XMP sidecars are written beside local ones). */
  async sourcesOf(ids: readonly number[]): Promise<Map<number, { source: string; root: string | null }>> {
    const out = new Map<number, { source: string; root: string | null }>();
    for await (const some of inTurns([...new Set(ids)])) {
      const rows = await this.db.kysely
        .selectFrom('asset')
        .select(['id', 'source_path', 'import_root'])
        .where('id', 'in', some)
        .execute();
      for (const r of rows) out.set(Number(r.id), { source: r.source_path, root: r.import_root });
    }
    return out;
  }

  async batch(id: number): Promise<EditBatch | undefined> {
    const row = await this.db.kysely.selectFrom('edit_batch').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? presentBatch(row) : undefined;
  }

  /** The rows of a batch (what its undo sets back). */
  async changesOf(batchId: number): Promise<ChangeRow[]> {
    const rows = await this.db.kysely
      .selectFrom('edit_change')
      .select(['asset_id', 'field', 'before', 'after'])
      .where('batch_id', '=', batchId)
      .execute();
    return rows.map((r) => ({
      asset_id: Number(r.asset_id),
      field: r.field,
      before: parseValues(r.before),
      after: parseValues(r.after),
    }));
  }

  /** An asset's history, latest first (the last `limit` batches that changed it). */
  async history(
    assetId: number,
    limit = 200,
  ): Promise<
    { batch: EditBatch; changes: { field: string; before: FieldValues | null; after: FieldValues | null }[] }[]
  > {
    const rows = await this.db.kysely
      .selectFrom('edit_change')
      .innerJoin('edit_batch', 'edit_batch.id', 'edit_change.batch_id')
      .select([
        'edit_batch.id',
        'edit_batch.kind',
        'edit_batch.account_name',
        'edit_batch.at',
        'edit_batch.assets',
        'edit_batch.fields',
        'edit_batch.undo_of',
        'edit_batch.undone_by',
        'edit_change.field',
        'edit_change.before',
        'edit_change.after',
      ])
      .where('edit_change.asset_id', '=', assetId)
      .orderBy('edit_change.batch_id', 'desc')
      .orderBy('edit_change.field')
      .execute();
    const entries: Awaited<ReturnType<EditRepository['history']>> = [];
    for (const r of rows) {
      let entry = entries[entries.length - 1];
      if (entry?.batch.id !== Number(r.id)) {
        if (entries.length === limit) break;
        entry = { batch: presentBatch(r), changes: [] };
        entries.push(entry);
      }
      entry.changes.push({ field: r.field, before: parseValues(r.before), after: parseValues(r.after) });
    }
    return entries;
  }

  /** Which fields of an asset are edited, by whom and when. */
  async edits(assetId: number): Promise<{ field: string; by: string | null; at: number; imported: FieldValues }[]> {
    const rows = await this.db.kysely
      .selectFrom('asset_edit')
      .select(['field', 'edited_by', 'edited_at', 'imported'])
      .where('asset_id', '=', assetId)
      .execute();
    return rows.map((r) => ({
      field: r.field,
      by: r.edited_by,
      at: Number(r.edited_at),
      imported: parseValues(r.imported) ?? {},
    }));
  }

  /** The assets in the bin that `groups` may edit, latest first, with who binned them and when. */
  async binned(
    groups: readonly string[],
    start: number,
    rows: number,
  ): Promise<{
    total: number;
    assets: { id: string; title: string; filename: string; binnedBy: string | null; binnedAt: string | null }[];
  }> {
    const db = this.db.kysely;
    const inBin = db.selectFrom('asset').where(editableTo(groups, true)).where('asset.status', '=', 'bin');
    const total = Number((await inBin.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const page = await inBin
      .select(['asset.id', 'asset.filename'])
      .orderBy('asset.updated_at', 'desc')
      .orderBy('asset.id', 'desc')
      .limit(rows)
      .offset(start)
      .execute();
    const ids = page.map((a) => Number(a.id));
    const titles = new Map<number, string>();
    const binnedBy = new Map<number, { by: string | null; at: number }>();
    if (ids.length > 0) {
      const values = await db
        .selectFrom('asset_value')
        .select(['asset_id', 'lang', 'value'])
        .where('field', '=', 'title')
        .where('asset_id', 'in', ids)
        .orderBy('lang')
        .orderBy('ord')
        .execute();
      for (const v of values) if (!titles.has(Number(v.asset_id))) titles.set(Number(v.asset_id), v.value);
      const bins = await db
        .selectFrom('edit_change')
        .innerJoin('edit_batch', 'edit_batch.id', 'edit_change.batch_id')
        .select(['edit_change.asset_id', 'edit_batch.account_name', 'edit_batch.at'])
        .where('edit_change.field', '=', STATUS)
        .where('edit_change.asset_id', 'in', ids)
        .orderBy('edit_change.batch_id', 'desc')
        .execute();
      for (const b of bins) {
        const id = Number(b.asset_id);
        if (!binnedBy.has(id)) binnedBy.set(id, { by: b.account_name, at: Number(b.at) });
      }
    }
    return {
      total,
      assets: page.map((a) => {
        const id = Number(a.id);
        const bin = binnedBy.get(id);
        return {
          id: String(id),
          title: titles.get(id) ?? a.filename,
          filename: a.filename,
          binnedBy: bin?.by ?? null,
          binnedAt: bin ? new Date(bin.at).toISOString() : null,
        };
      }),
    };
  }

  /** Every DAM collection (for the editor's choice). */
  async collections(): Promise<{ id: number; name: string; path: string }[]> {
    const rows = await this.db.kysely.selectFrom('collection').select(['id', 'name', 'path']).orderBy('path').execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, path: r.path }));
  }

  /** Of `ids`, those of collections that exist. */
  async existingCollections(ids: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>();
    for (const part of chunks([...new Set(ids)], 1)) {
      const rows = await this.db.kysely.selectFrom('collection').select('id').where('id', 'in', part).execute();
      for (const r of rows) found.add(Number(r.id));
    }
    return found;
  }

  async collection(id: number): Promise<{ id: number; name: string; path: string } | undefined> {
    const row = await this.db.kysely
      .selectFrom('collection')
      .select(['id', 'name', 'path'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { id: Number(row.id), name: row.name, path: row.path } : undefined;
  }
}

/** The fields a batch changes that are not values (asset_value) of its assets. */
const NOT_VALUES = new Set([CREATED, STATUS, ACCESS_GROUPS, COLLECTIONS]);

/** The asset_value rows of a change's values after it, each language's from its `from(lang)`-th value on. */
function valueRows(c: ChangeRow, from: (lang: string) => number = () => 0): WrittenRows['values'] {
  return Object.entries(c.after ?? {}).flatMap(([lang, values]) => {
    const kept = from(lang);
    return values.slice(kept).map((value, i) => ({ asset_id: c.asset_id, field: c.field, lang, ord: kept + i, value }));
  });
}

/** The rows of `fields` of the assets `ids` after `changes`: the changed fields' new values, the others' as read. */
async function rowsAfter(
  current: ReadonlyMap<number, CurrentAsset>,
  changes: readonly ChangeRow[],
  ids: readonly number[],
  fields: readonly string[],
): Promise<WrittenRows> {
  const after = new Map<number, Map<string, FieldValues | null>>();
  for (const c of changes) {
    let own = after.get(c.asset_id);
    if (!own) after.set(c.asset_id, (own = new Map<string, FieldValues | null>()));
    own.set(c.field, c.after);
  }
  const rows: WrittenRows = { assets: [], values: [] };
  for await (const some of inTurns(ids))
    for (const id of some) {
      const asset = current.get(id);
      if (!asset) continue;
      rows.assets.push({ id, status: asset.status, filename: asset.filename });
      const changed = after.get(id);
      for (const field of fields) {
        const values = (changed?.has(field) ? changed.get(field) : asset.fields.get(field)) ?? {};
        for (const [lang, list] of Object.entries(values))
          list.forEach((value, ord) => rows.values.push({ asset_id: id, field, lang, ord, value }));
      }
    }
  return rows;
}

/** True when `after` is `before` with values added at the end of some languages' lists (nothing else changed). */
export function appends(before: FieldValues, after: FieldValues): boolean {
  for (const [lang, values] of Object.entries(before)) {
    const now = after[lang];
    if (!now || now.length < values.length || values.some((v, i) => now[i] !== v)) return false;
  }
  return true;
}
