import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** A portal server of one journey file, on a catalogue of its own (not the demo the others count on). */
export interface OwnServer {
  origin: string;
  /** The temporary folder that holds its data folder and whatever the journey puts beside it. */
  folder: string;
  /** Stops the server as production does (SIGTERM) and removes the folder. */
  stop(): Promise<void>;
}

/**
 * The port of a journey file's own server: one above the demo journeys' (the 10,000-asset journeys
 * take 50 above), so that it runs beside them.
 */
export const ownPort = Number(process.env.E2E_PORT ?? 18473) + 1;

/**
 * Starts the compiled server on `ownPort` with a new data folder, after `prepare` has filled it
 * through the command line (`vitrine(...args)`), as an operator would. The journey settings apply,
 * as `settings` changes them when it is given.
 */
export async function startOwnServer(
  prepare: (vitrine: (...args: string[]) => void, folder: string, dataDir: string) => void,
  settings?: (journeySettings: Record<string, unknown>) => Record<string, unknown>,
): Promise<OwnServer> {
  const folder = mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-own-'));
  const journeySettings = path.join(root, 'e2e/settings.json');
  let settingsFile = journeySettings;
  if (settings) {
    settingsFile = path.join(folder, 'settings.json');
    const base = JSON.parse(readFileSync(journeySettings, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify(settings(base)));
  }
  const env = {
    ...process.env,
    PORT: String(ownPort),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(folder, 'data'),
    LOG_LEVEL: 'warn',
    SETTINGS_FILE: settingsFile,
  };
  const origin = `http://127.0.0.1:${ownPort}`;
  let server: ChildProcess | undefined;
  const stop = async () => {
    if (server) await stopServer(server);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await expectPortFree(origin);
    prepare(
      (...args) =>
        execFileSync(process.execPath, ['apps/server/bin/vitrine.mjs', ...args], { cwd: root, env, stdio: 'pipe' }),
      folder,
      env.DATA_DIR,
    );
    server = spawn(process.execPath, ['apps/server/bin/vitrine.mjs', 'serve'], { cwd: root, env, stdio: 'inherit' });
    await serverStarted(server, origin, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, folder, stop };
}

const answers = (origin: string) =>
  fetch(`${origin}/assetportal/api/health`).then(
    (r) => r.ok,
    () => false,
  );

/** Throws when a server answers on `origin` already: it would answer in place of the one to start. */
export async function expectPortFree(origin: string): Promise<void> {
  if (await answers(origin)) throw new Error(`a server answers on ${origin} already`);
}

/** Waits until the server process answers its health call on `origin`; throws if it ends or takes too long. */
export async function serverStarted(server: ChildProcess, origin: string, timeoutMs: number): Promise<void> {
  for (let waited = 0; ; waited += 200) {
    if (await answers(origin)) return;
    if (server.exitCode !== null || waited > timeoutMs) throw new Error(`the server on ${origin} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops a server process as production does (SIGTERM), and ends it if it has not stopped after ten seconds. */
export async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const stopped = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (stopped === false) server.kill('SIGKILL');
}
