import { stat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { rgbaToPng } from '../adapters/media.ts';
import { startThread } from '../adapters/thread.ts';
import { MODEL_VIEW_SIZE } from './model-view.ts';
import type { ModelAnswer, ModelJob } from './model-view.thread.ts';

/** The limits a 3D model must keep to be drawn (settings `models`). */
export interface ModelLimits {
  maxFileMb: number;
  maxTriangles: number;
  timeoutSeconds: number;
  maxMemoryMb: number;
}

/** A drawn view, a model the renderer cannot read, or one the limits refuse (with the reason). */
export type ModelView = { kind: 'drawn'; png: Buffer } | { kind: 'unreadable' } | { kind: 'refused'; reason: string };

const MB = 1024 * 1024;
/** Drawing threads kept for the next model (starting one compiles the drawing code, seconds on a busy machine). */
const IDLE_THREADS = 2;

/**
 * Draws views of 3D models in worker threads, so that parsing and rasterising a large model never
 * holds up the thread that answers requests; each thread draws one model at a time, and how many
 * draw at once is up to the caller (the work budget's `model_view` slots). A model is refused
 * before it is read when its file is too large, while it is parsed when it has too many triangles,
 * and its thread is ended when it runs out of its time or memory.
 */
export class ModelRenderer {
  private readonly idle: Worker[] = [];

  constructor(private readonly limits: ModelLimits) {}

  async render(file: string, format: string): Promise<ModelView> {
    const { maxFileMb, maxTriangles } = this.limits;
    const size = (await stat(file)).size;
    if (size > maxFileMb * MB) {
      return refused(
        `The model file has ${(size / MB).toFixed(1)} MB; at most ${maxFileMb} MB are drawn (models.maxFileMb).`,
      );
    }
    const answer = await this.inThread({ file, format, maxTriangles });
    switch (answer.kind) {
      case 'drawn':
        return { kind: 'drawn', png: await rgbaToPng(answer.rgba, MODEL_VIEW_SIZE.width, MODEL_VIEW_SIZE.height) };
      case 'unreadable':
        return answer;
      case 'refused':
        return refused(answer.reason);
      case 'failed':
        throw new Error(`the model could not be read: ${answer.reason}`);
    }
  }

  /** Ends the idle drawing threads (the services' close). */
  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private thread(): Worker {
    const kept = this.idle.pop();
    if (kept) return kept;
    const worker = startThread('model-view.thread', import.meta.url, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxMemoryMb },
    });
    // An idle thread does not keep the process alive.
    worker.unref();
    return worker;
  }

  private inThread(job: ModelJob): Promise<ModelAnswer> {
    const { timeoutSeconds, maxMemoryMb } = this.limits;
    const worker = this.thread();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: ModelAnswer, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (reusable && this.idle.length < IDLE_THREADS) this.idle.push(worker);
        else void worker.terminate();
        resolve(answer);
      };
      const onMessage = (answer: ModelAnswer) => settle(answer, true);
      const onError = (err: Error & { code?: string }) =>
        settle(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? {
                kind: 'refused',
                reason: `Drawing the model needs more than ${maxMemoryMb} MB and was stopped (models.maxMemoryMb).`,
              }
            : { kind: 'failed', reason: err.message },
          false,
        );
      const onExit = (code: number) =>
        settle({ kind: 'failed', reason: `the drawing thread ended with ${code}` }, false);
      const timer = setTimeout(
        () =>
          settle(
            {
              kind: 'refused',
              reason: `Drawing the model took longer than ${timeoutSeconds} s and was stopped (models.timeoutSeconds).`,
            },
            false,
          ),
        timeoutSeconds * 1000,
      );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(job);
    });
  }
}

function refused(reason: string): ModelView {
  return { kind: 'refused', reason };
}
