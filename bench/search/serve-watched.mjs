// `vitrine serve` with its event loop watched, for bench/search only (nothing of this is in the
// product). The bench starts it with an IPC channel and sends 'reset' before a series of requests and
// 'report' after it; the answer is the longest delay of the event loop in between, in milliseconds
// (perf_hooks.monitorEventLoopDelay, sampled every 10 ms, so a task of t ms shows as about t).
// It runs the compiled server, as `npm start` does (run.ts builds it when out of date), or the one
// VITRINE_SERVER_MAIN names (another build's dist/cli/main.js, to compare two builds on one catalogue).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.on('message', (message) => {
  if (message === 'reset') {
    histogram.reset();
    process.send?.({ reset: true });
  } else if (message === 'report') {
    process.send?.({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, meanMs: histogram.mean / 1e6 });
  }
});
// BENCH_LONG_TASKS=FILE: every callback that held the event loop 30 ms or more is written there (its
// kind, when it began in ms since the process started, how long it ran), to line up with a CPU
// profile of the same run (BENCH_SERVER_CPU_PROF).
if (process.env.BENCH_LONG_TASKS) {
  const { createHook } = await import('node:async_hooks');
  const { appendFileSync } = await import('node:fs');
  const kinds = new Map();
  const began = new Map();
  createHook({
    init: (id, type) => kinds.set(id, type),
    before: (id) => began.set(id, performance.now()),
    after: (id) => {
      const start = began.get(id);
      const ran = start === undefined ? 0 : performance.now() - start;
      if (ran >= 30)
        appendFileSync(process.env.BENCH_LONG_TASKS, `${kinds.get(id)} ${start.toFixed(0)} ${ran.toFixed(0)}\n`);
      began.delete(id);
    },
    destroy: (id) => kinds.delete(id),
  }).enable();
}
// The channel must not keep the server alive after SIGTERM.
process.channel?.unref();

process.argv.splice(2, 0, 'serve');
const main = process.env.VITRINE_SERVER_MAIN ?? new URL('../../apps/server/dist/cli/main.js', import.meta.url).pathname;
await import(pathToFileURL(main).href);
