import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canCheck, endProcesses, leftBehind } from './leftovers.mjs';

describe.runIf(canCheck())('npm test finds processes a step left behind', () => {
  it('finds a process whose parent ended (adopted by init) by its session, and ends it', async () => {
    // A shell in a session of its own starts a sleep in the background and exits at once.
    const shell = spawn('sh', ['-c', 'sleep 60 >/dev/null 2>&1 & echo $!'], { detached: true });
    const sleeper = await new Promise<number>((resolve) =>
      shell.stdout.on('data', (b: Buffer) => resolve(Number(String(b).trim()))),
    );
    await new Promise((resolve) => shell.once('exit', resolve));
    const sessions = new Set([shell.pid ?? 0]);
    const left = await leftBehind(sessions, 300);
    expect(left).toEqual([{ pid: sleeper, command: 'sleep 60' }]);
    await endProcesses(left);
    expect(await leftBehind(sessions, 0)).toEqual([]);
  });

  it('waits for processes that end by themselves within the grace time', async () => {
    const shell = spawn('sh', ['-c', 'sleep 0.5 &'], { detached: true });
    await new Promise((resolve) => shell.once('exit', resolve));
    expect(await leftBehind(new Set([shell.pid ?? 0]), 3000)).toEqual([]);
  });
});
