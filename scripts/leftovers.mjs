// Processes a command left behind. Each step of `npm test` runs in a session of its own; a process
// of that session still running after the step ended (an exiftool -stay_open, a server, a browser)
// was left behind, even when its parent died and init adopted it. Linux only (reads /proc).
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const canCheck = () => existsSync('/proc/self/stat');

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp session …": comm may hold spaces and parentheses.
    const [state, , , session] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, session: Number(session) };
  } catch {
    return undefined;
  }
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Living processes (zombies are dead already) of the given sessions, but not this process. */
export function processesOf(sessions) {
  const found = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const s = stat(pid);
    if (s && s.state !== 'Z' && sessions.has(s.session)) found.push({ pid, command: commandLine(pid) });
  }
  return found;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The processes of the sessions still running after a grace time in which they may end by themselves. */
export async function leftBehind(sessions, graceMs = 5000) {
  const until = Date.now() + graceMs;
  let left = processesOf(sessions);
  while (left.length > 0 && Date.now() < until) {
    await sleep(200);
    left = processesOf(sessions);
  }
  return left;
}

/** Ends processes: SIGTERM, then SIGKILL for those still there after two seconds. */
export async function endProcesses(processes) {
  const signal = (p, sig) => {
    try {
      process.kill(p.pid, sig);
    } catch {
      // gone already
    }
  };
  for (const p of processes) signal(p, 'SIGTERM');
  await sleep(2000);
  for (const p of processes) if (existsSync(`/proc/${p.pid}`)) signal(p, 'SIGKILL');
}
