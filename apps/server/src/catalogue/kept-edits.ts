// The edit overlay over the import's writes (decision 0250): what an editor changed survives a new
// import of the file. CatalogueRepository.save runs it on the assets it replaces.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AssetWrite } from './catalogue.repository.ts';
import {
  ACCESS_GROUPS,
  canonical,
  COLLECTIONS,
  CREATED,
  createdValues,
  editedFields,
  listValues,
  valuesOfField,
} from './edit-overlay.ts';
import { chunks } from './rows.ts';

/**
 * The edit overlay (decision 0250) over writes that replace assets: a field an editor changed keeps
 * its current value (every language of an index field, the date column, the access groups, the
 * collection memberships) and `asset_edit.imported` takes the file's new value; an asset in the bin
 * stays there. One indexed read of `asset_edit` per batch of replaced assets; the current values are
 * read only for assets that have edits.
 */
export async function keepEdits(
  trx: Kysely<Database>,
  writes: readonly AssetWrite[],
  known: ReadonlyMap<string, number>,
  binned: ReadonlySet<number>,
): Promise<readonly AssetWrite[]> {
  const replaced = [...new Set(known.values())];
  const edits = new Map<number, Set<string>>();
  for (const ids of chunks(replaced, 1)) for (const [id, f] of await editedFields(trx, ids)) edits.set(id, f);
  if (edits.size === 0 && binned.size === 0) return writes;
  const editedIds = [...edits.keys()];
  const current = new Map<
    number,
    { values: AssetWrite['values']; access: string[]; members: number[]; created: number | null }
  >();
  for (const ids of chunks(editedIds, 1)) {
    const [assets, values, access, members] = await Promise.all([
      trx.selectFrom('asset').select(['id', 'created']).where('id', 'in', ids).execute(),
      trx
        .selectFrom('asset_value')
        .select(['asset_id', 'field', 'lang', 'value'])
        .where('asset_id', 'in', ids)
        .orderBy('asset_id')
        .orderBy('field')
        .orderBy('lang')
        .orderBy('ord')
        .execute(),
      trx.selectFrom('asset_access').select(['asset_id', 'group_name']).where('asset_id', 'in', ids).execute(),
      trx.selectFrom('asset_collection').select(['asset_id', 'collection_id']).where('asset_id', 'in', ids).execute(),
    ]);
    for (const a of assets) {
      current.set(Number(a.id), {
        values: [],
        access: [],
        members: [],
        created: a.created === null ? null : Number(a.created),
      });
    }
    for (const v of values) current.get(Number(v.asset_id))?.values.push(v);
    for (const a of access) current.get(Number(a.asset_id))?.access.push(a.group_name);
    for (const m of members) current.get(Number(m.asset_id))?.members.push(Number(m.collection_id));
  }
  const out: AssetWrite[] = [];
  for (const w of writes) {
    const id = known.get(w.columns.source_path);
    const fields = id === undefined ? undefined : edits.get(id);
    const was = id === undefined ? undefined : current.get(id);
    let write = w;
    if (id !== undefined && binned.has(id)) write = { ...write, columns: { ...write.columns, status: 'bin' } };
    if (id !== undefined && fields && was) {
      const file = write;
      const kept = new Set([...fields].filter((f) => f !== CREATED && f !== ACCESS_GROUPS && f !== COLLECTIONS));
      write = {
        ...write,
        columns: fields.has(CREATED) ? { ...write.columns, created: was.created } : write.columns,
        values: [...write.values.filter((v) => !kept.has(v.field)), ...was.values.filter((v) => kept.has(v.field))],
        accessGroups: fields.has(ACCESS_GROUPS) ? was.access : write.accessGroups,
        collectionIds: fields.has(COLLECTIONS) ? was.members : write.collectionIds,
      };
      for (const field of fields) {
        const imported =
          field === CREATED
            ? createdValues(file.columns.created)
            : field === ACCESS_GROUPS
              ? listValues([...new Set(file.accessGroups)])
              : field === COLLECTIONS
                ? listValues([...new Set(file.collectionIds)])
                : valuesOfField(file.values, field);
        await trx
          .updateTable('asset_edit')
          .set({ imported: canonical(imported) })
          .where('asset_id', '=', id)
          .where('field', '=', field)
          .execute();
      }
    }
    out.push(write);
  }
  return out;
}
