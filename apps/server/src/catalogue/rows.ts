// Row helpers of the catalogue's writes, shared by the import (catalogue.repository.ts) and editing
// (edit/edit.repository.ts): statements sized to the databases' parameter limits, bulk inserts, turns
// of the event loop between slices, and the rows that hang on an asset.
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { WrittenRows } from '../db/catalogue-state.ts';
import { isPostgres } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { nextTurn } from '../db/turn.ts';
import { statementRows } from '../db/write-thread.ts';

/** Rows per statement: both databases limit the parameters of one (SQLite 32766, PostgreSQL 65535). */
const PARAMETERS = 30_000;

/**
 * Assets per statement where a change of existing assets runs beside searches (edits): SQLite
 * answers synchronously, and a statement over 500 assets held the event loop 30–50 ms in a
 * catalogue of 200,000 edited again and again; over 250, half that.
 */
export const TURN_SIZE = 250;

/** Slices of `rows` of `size`, with a turn of the event loop before each but the first. */
export async function* inTurns<T>(rows: readonly T[], size = TURN_SIZE): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) {
    if (i > 0) await nextTurn();
    yield rows.slice(i, i + size);
  }
}

/** Rows split into parts small enough for one statement of `columns` parameters per row. */
export function chunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(PARAMETERS / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Inserts rows (objects with the keys `columns`) in the order given, with as few statements as the
 * database allows, and answers the `returning` columns. Rows are passed without the query builder:
 * building a statement of thousands of values through it costs more than the database's work. On
 * PostgreSQL they travel as one JSON parameter that json_populate_recordset unpacks (the server
 * parses it on its own core); on SQLite as VALUES lists of bound parameters, which it reads fastest.
 */
export async function insertAll<R = unknown>(
  trx: Kysely<Database>,
  table: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  returning: readonly string[] = [],
): Promise<R[]> {
  if (rows.length === 0) return [];
  const names = columns.join(', ');
  const ret = returning.length > 0 ? ` returning ${returning.join(', ')}` : '';
  if (isPostgres(trx)) {
    const query = CompiledQuery.raw(
      `insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, $1::json)
       with ordinality order by ordinality${ret}`,
      [JSON.stringify(rows)],
    );
    return (await trx.executeQuery<R>(query)).rows;
  }
  const out: R[] = [];
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (const part of chunks(rows, columns.length)) {
    const parameters: unknown[] = [];
    for (const row of part) for (const c of columns) parameters.push(row[c]);
    const query = CompiledQuery.raw(
      `insert into ${table} (${names}) values ${Array.from(part, () => tuple).join(', ')}${ret}`,
      parameters,
    );
    out.push(...(await trx.executeQuery<R>(query)).rows);
  }
  return out;
}

/** Collections without a tile take the asset given (collection id → asset id) as theirs. */
export async function giveTiles(trx: Transaction<Database>, tiles: ReadonlyMap<number, number>): Promise<void> {
  for (const [collection, id] of tiles) {
    await trx
      .updateTable('collection')
      .set({ thumbnail_asset_id: id })
      .where('id', '=', collection)
      .where('thumbnail_asset_id', 'is', null)
      .execute();
  }
}

/** The rows that hang on assets (all but the asset's own), removed with them for good. */
export async function deleteAssetRows(trx: Transaction<Database>, ids: readonly number[]): Promise<void> {
  for (const table of [
    'derivative',
    'asset_value',
    'asset_collection',
    'asset_access',
    'asset_caption',
    'asset_edit',
  ] as const) {
    await trx.deleteFrom(table).where('asset_id', 'in', ids).execute();
  }
}

/** What the full-text index reads of assets after a change: their status, file name and the values of `fields`. */
export async function writtenRows(
  trx: Kysely<Database>,
  ids: readonly number[],
  fields: readonly string[],
): Promise<WrittenRows> {
  const rows: WrittenRows = { assets: [], values: [] };
  for await (const some of inTurns(ids, statementRows(trx, TURN_SIZE))) {
    const assets = await trx.selectFrom('asset').select(['id', 'status', 'filename']).where('id', 'in', some).execute();
    for (const a of assets) rows.assets.push({ id: Number(a.id), status: a.status, filename: a.filename });
    if (fields.length === 0) continue;
    const values = await trx
      .selectFrom('asset_value')
      .select(['asset_id', 'field', 'lang', 'ord', 'value'])
      .where('asset_id', 'in', some)
      .where('field', 'in', fields)
      .execute();
    for (const v of values) rows.values.push({ ...v, asset_id: Number(v.asset_id), ord: Number(v.ord) });
  }
  return rows;
}

/** Lets timers and I/O run between a command's transactions. */
export { nextTurn };
