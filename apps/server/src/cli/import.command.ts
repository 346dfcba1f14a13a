import type { ImportSummary } from '../catalogue/import.service.ts';
import type { Services } from '../services.ts';
import { bar } from './progress.ts';

const short = (s: string) => (s.length > 48 ? `…${s.slice(-47)}` : s);

/** Imports a folder or a bucket prefix (`s3://bucket/prefix`) with a progress bar; answers the summary. */
export async function importWithProgress(services: Services, source: string, quiet = false): Promise<ImportSummary> {
  const progress = bar('Importing');
  let started = false;
  const summary = await services.importer().importFrom(source, (p) => {
    if (quiet) return;
    if (!started) {
      progress.start(p.total, 0, { detail: '' });
      started = true;
    }
    progress.update(p.done, { detail: short(p.file) });
  });
  if (started) progress.stop();
  return summary;
}

/** Runs derivative jobs in this process until none are left, with a progress bar. */
export async function makeDerivatives(services: Services, quiet = false): Promise<{ failed: number }> {
  const jobs = services.repositories.jobs;
  const before = await jobs.counts();
  const total = before.queued + before.running;
  const progress = bar('Derivatives');
  if (!quiet && total > 0) progress.start(total, 0, { detail: '' });
  let done = 0;
  const worker = services.jobWorker({
    onSettled: (job, outcome) => {
      if (outcome === 'retry') return;
      done++;
      if (!quiet && total > 0)
        progress.update(Math.min(done, total), { detail: `${job.name} ${job.key.split(':')[1] ?? ''}` });
    },
  });
  await worker.drain();
  await worker.stop();
  if (!quiet && total > 0) progress.stop();
  const after = await jobs.failures();
  return { failed: after.length };
}

/**
 * Makes the visual signatures of assets that have pictures but none of their content (imported
 * before signatures were, or signed by an older way), once, with a progress bar; a second run finds
 * none left and does nothing.
 */
export async function makeSignatures(services: Services, quiet = false): Promise<{ signed: number; failed: number }> {
  const backfill = services.signatureBackfill();
  const total = await backfill.pending();
  if (total === 0) return { signed: 0, failed: 0 };
  const progress = bar('Signatures');
  if (!quiet) progress.start(total, 0, { detail: '' });
  const result = await backfill.run((done) => {
    if (!quiet) progress.update(Math.min(done, total), { detail: '' });
  });
  if (!quiet) progress.stop();
  return result;
}

export function printSummary(summary: ImportSummary, log: (line: string) => void = console.log): void {
  const mb = summary.bytes / 1e6;
  log(
    `Imported ${summary.imported}, updated ${summary.updated}, unchanged ${summary.unchanged}, ` +
      `marked gone ${summary.gone}, failed ${summary.failed.length} ` +
      `(${summary.files} files, ${mb.toFixed(1)} MB in ${summary.seconds.toFixed(1)} s: ` +
      `${(summary.files / summary.seconds).toFixed(1)} files/s, ${(mb / summary.seconds).toFixed(1)} MB/s)`,
  );
  for (const f of summary.failed) log(`  failed: ${f.file}: ${f.reason}`);
  for (const w of summary.warnings) log(`  warning: ${w}`);
}
