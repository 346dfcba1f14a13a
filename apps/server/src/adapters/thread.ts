import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `name` beside `base` (the caller's `import.meta.url`). In the
 * build (`dist/`) that is the compiled `.js` beside the caller. From the sources (tsx in development,
 * Vitest in tests) it is the `.ts`, which a thread cannot load by itself, as it inherits neither
 * loader: `ts-thread.mjs` registers tsx in the thread first.
 */
export function startThread(name: string, base: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const source = new URL(`./${name}.ts`, base).href;
  return new Worker(new URL('./ts-thread.mjs', import.meta.url), { ...options, argv: [source] });
}
