import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { drawModel, ModelRefused } from './model-view.ts';

/** What the renderer hands a drawing thread (model-renderer.ts), and what the thread answers. */
export interface ModelJob {
  file: string;
  format: string;
  maxTriangles: number;
}

export type ModelAnswer =
  | { kind: 'drawn'; rgba: Uint8Array }
  | { kind: 'unreadable' }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

async function answer(job: ModelJob): Promise<ModelAnswer> {
  try {
    const rgba = drawModel(await readFile(job.file), job.format, job.maxTriangles);
    return rgba ? { kind: 'drawn', rgba } : { kind: 'unreadable' };
  } catch (err) {
    if (err instanceof ModelRefused) return { kind: 'refused', reason: err.message };
    return { kind: 'failed', reason: (err as Error).message };
  }
}

// One model at a time: the renderer sends the next only after this one's answer.
parentPort?.on('message', (job: ModelJob) => {
  void answer(job).then((result) =>
    // The pixels move to the main thread rather than being copied.
    parentPort?.postMessage(result, result.kind === 'drawn' ? [result.rgba.buffer as ArrayBuffer] : []),
  );
});
