/**
 * A change as its writer wrote it (WrittenChange), kept beside the change log for the other
 * processes of a catalogue (Catalogue.writtenParts): a process whose index lacks only that change
 * takes it as the writer's own process does, without reading the changed assets again. The change
 * is kept in parts of a few hundred assets, each a JSON text made and read in a turn of the event
 * loop of its own (a bulk edit of 5,000 assets is some 5 MB of values and texts).
 */
import { pause, slicer } from '../engine-types.ts';
import type { ValueRow } from '../ports.ts';
import type { TextDocument } from '../text-index.ts';
import type { WrittenChange } from './catch-up.ts';

/** Assets per part. */
export const WRITTEN_PART_ASSETS = 250;

/** One part: the change's fields, some of its assets with their value rows and documents (as tuples). */
interface WrittenPart {
  v: 1;
  seq: number;
  fields: readonly string[];
  ids: readonly number[];
  /** [asset_id, field, lang, ord, value], in the change's order. */
  values: [number, string, string, number, string][];
  /** [id, title, body]; absent when the writer wrote no documents. */
  documents?: [number, string, string][];
}

/** The change's parts, in order: each the JSON text of WRITTEN_PART_ASSETS assets. */
export async function* writtenParts(change: WrittenChange): AsyncGenerator<string> {
  const part = new Map<number, number>();
  change.ids.forEach((id, i) => part.set(id, Math.floor(i / WRITTEN_PART_ASSETS)));
  const count = Math.ceil(change.ids.length / WRITTEN_PART_ASSETS);
  const values: WrittenPart['values'][] = Array.from({ length: count }, () => []);
  for (const v of change.values) {
    const p = part.get(v.asset_id);
    if (p !== undefined) values[p]!.push([v.asset_id, v.field, v.lang, v.ord, v.value]);
  }
  const documents: NonNullable<WrittenPart['documents']>[] = Array.from({ length: count }, () => []);
  for (const d of change.documents ?? []) {
    const p = part.get(d.id);
    if (p !== undefined) documents[p]!.push([d.id, d.title, d.body]);
  }
  for (let p = 0; p < count; p++) {
    if (p > 0) await pause();
    const body: WrittenPart = {
      v: 1,
      seq: change.seq,
      fields: change.fields,
      ids: change.ids.slice(p * WRITTEN_PART_ASSETS, (p + 1) * WRITTEN_PART_ASSETS),
      values: values[p]!,
      ...(change.documents ? { documents: documents[p]! } : {}),
    };
    yield JSON.stringify(body);
  }
}

/** A part, or undefined when its text is no JSON (the change is then read as any other). */
function parsed(text: string): WrittenPart | undefined {
  try {
    return JSON.parse(text) as WrittenPart;
  } catch {
    return undefined;
  }
}

/**
 * The change of `seq` from its parts, or undefined when they are not a whole change of that
 * sequence (none kept, another format, a part missing): the caller then reads the change as any
 * other.
 */
export async function writtenChangeOf(seq: number, parts: readonly string[]): Promise<WrittenChange | undefined> {
  if (parts.length === 0) return undefined;
  const ids: number[] = [];
  const values: ValueRow[] = [];
  let documents: TextDocument[] | undefined = [];
  let fields: readonly string[] | undefined;
  const turn = slicer();
  for (const text of parts) {
    await turn();
    const part = parsed(text);
    if (part?.v !== 1 || part.seq !== seq) return undefined;
    if (fields && fields.join('\n') !== part.fields.join('\n')) return undefined;
    fields = part.fields;
    ids.push(...part.ids);
    for (const [asset_id, field, lang, ord, value] of part.values) values.push({ asset_id, field, lang, ord, value });
    if (!part.documents) documents = undefined;
    else documents?.push(...part.documents.map(([id, title, body]) => ({ id, title, body })));
  }
  return { seq, ids, fields: fields ?? [], values, ...(documents ? { documents } : {}) };
}
