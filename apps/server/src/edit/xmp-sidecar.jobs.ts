import { stat } from 'node:fs/promises';
import path from 'node:path';
import { writeXmpSidecar, type XmpFields } from '../adapters/metadata.ts';
import { CREATED, type FieldValues } from '../catalogue/edit-overlay.ts';
import { bucketLocation } from '../derivatives/source-file.ts';
import type { JobRepository } from '../jobs/job.repository.ts';
import type { JobHandler } from '../jobs/job.worker.ts';
import type { Settings } from '../settings.ts';
import type { EditRepository } from './edit.repository.ts';

export const XMP_SIDECAR_JOB = 'xmp-sidecar';

/** The fields an XMP sidecar carries (docs/editing.md "XMP sidecars"). */
export const XMP_FIELDS = ['title', 'description', 'keywords', 'creator', 'copyright', CREATED] as const;

interface XmpPayload {
  assetId: number;
}

const isInside = (folder: string, file: string) => {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

const first = (v: FieldValues | undefined) => Object.values(v ?? {}).flat()[0] ?? null;
const byLanguage = (v: FieldValues | undefined) => {
  const out: Record<string, string> = {};
  for (const [lang, values] of Object.entries(v ?? {})) if (values[0] !== undefined) out[lang] = values[0];
  return out;
};

/**
 * Edits written back beside their originals as XMP sidecars (`editing.writeXmpSidecars`, issue #49),
 * so the folder stays the source of truth for Lightroom, Bridge and the like, and a re-import reads
 * them (import.service.ts). Only originals of folder imports get one: not objects of a bucket, not
 * uploads (kept in DATA_DIR/uploads). A sidecar holds the edited fields with their current values;
 * a field that is not (or no longer) edited is removed from it, so a reset hands the field back to
 * the file's own metadata at the next import.
 */
export class XmpSidecars {
  constructor(
    private readonly edits: EditRepository,
    private readonly jobs: JobRepository,
    private readonly settings: Pick<Settings, 'dataDir' | 'file'>,
  ) {}

  private get enabled(): boolean {
    return this.settings.file.editing.writeXmpSidecars;
  }

  /** Whether an asset's original lies in a folder it was imported from, where a sidecar may go. */
  private writable(at: { source: string; root: string | null } | undefined): at is { source: string; root: string } {
    if (!at?.root || bucketLocation(at.source) || !path.isAbsolute(at.source)) return false;
    return !isInside(path.join(this.settings.dataDir, 'uploads'), at.source);
  }

  /**
   * After a batch (edit, undo, reset) or a reset without one: a job per changed asset whose original
   * a sidecar may go beside.
   */
  async queue(written: { batch: number } | { assets: number[] }): Promise<void> {
    if (!this.enabled) return;
    const changed = 'batch' in written ? (await this.edits.changesOf(written.batch)).map((c) => c.asset_id) : [];
    const ids = [...new Set('assets' in written ? written.assets : changed)];
    const sources = await this.edits.sourcesOf(ids);
    for (const id of ids) {
      if (!this.writable(sources.get(id))) continue;
      // Keyed by asset: edits queued while one waits are written by it, as it reads the values when it runs.
      await this.jobs.enqueue({ name: XMP_SIDECAR_JOB, key: `${XMP_SIDECAR_JOB}:${id}`, payload: { assetId: id } });
    }
  }

  /** Writes an asset's sidecar as its edits are now (idempotent: run twice, the same file). */
  async write(assetId: number): Promise<void> {
    if (!this.enabled) return;
    const at = (await this.edits.sourcesOf([assetId])).get(assetId);
    if (!this.writable(at)) return;
    // An original gone from its folder gets no sidecar of its own.
    if (!(await stat(at.source).catch(() => undefined))?.isFile()) return;
    const target = `${at.source}.xmp`;
    // An edit written while this job runs asks for no new run (its key is taken): write until the
    // values read after a write are those written.
    let written: string | undefined;
    for (let round = 0; round < 5; round++) {
      const fields = await this.fieldsOf(assetId);
      const text = JSON.stringify(fields);
      if (text === written) return;
      // Nothing edited and no sidecar yet: nothing to say, and no file to make.
      if (!fields || (Object.values(fields).every((v) => v === null) && !(await stat(target).catch(() => undefined))))
        return;
      await writeXmpSidecar(target, fields);
      written = text;
    }
  }

  /** The sidecar's fields of an asset: the edited ones with their values, null for the others. */
  private async fieldsOf(assetId: number): Promise<{ [K in keyof XmpFields]: XmpFields[K] | null } | undefined> {
    const current = (await this.edits.current([assetId], XMP_FIELDS)).get(assetId);
    if (!current) return undefined;
    const edited = new Set((await this.edits.edits(assetId)).map((e) => e.field));
    const v = (field: (typeof XMP_FIELDS)[number]) => (edited.has(field) ? current.fields.get(field) : undefined);
    return {
      title: edited.has('title') ? byLanguage(v('title')) : null,
      description: edited.has('description') ? byLanguage(v('description')) : null,
      // dc:subject has no languages: the keywords of every language.
      keywords: edited.has('keywords') ? [...new Set(Object.values(v('keywords') ?? {}).flat())] : null,
      creator: edited.has('creator') ? first(v('creator')) : null,
      copyright: edited.has('copyright') ? first(v('copyright')) : null,
      created: edited.has(CREATED) ? first(v(CREATED)) : null,
    };
  }
}

export function xmpSidecarJobHandler(sidecars: XmpSidecars): JobHandler<XmpPayload> {
  return {
    name: XMP_SIDECAR_JOB,
    parse: (p) => {
      const o = p as Partial<XmpPayload> | null;
      if (!o || typeof o.assetId !== 'number') throw new Error('bad xmp-sidecar payload');
      return { assetId: o.assetId };
    },
    run: ({ assetId }) => sidecars.write(assetId),
  };
}
