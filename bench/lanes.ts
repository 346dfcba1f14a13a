import { spawn } from 'node:child_process';

/** Runs `work` over the items with `lanes` at a time; answers seconds. */
export async function timed<T>(
  items: T[],
  lanes: number,
  work: (item: T, i: number) => Promise<void>,
): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const i = next++;
        const item = items[i];
        if (item !== undefined) await work(item, i);
      }
    }),
  );
  return (performance.now() - start) / 1000;
}

export function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exit ${code}`))));
  });
}
