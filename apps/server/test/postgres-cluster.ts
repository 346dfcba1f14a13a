import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster for the test run: initdb into a temporary folder, started on a free
 * loopback port from Debian's binaries. Without PostgreSQL the run fails and says what to install;
 * the PostgreSQL tests are never skipped silently.
 */
export interface TestCluster {
  url: string;
  /** Shuts the database server down (fast: open sessions are ended), keeping its data. */
  halt(): void;
  /** Starts it again after halt(). */
  resume(): void;
  stop(): void;
}

function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  throw new Error(
    'PostgreSQL is needed for the tests but initdb was not found. Install it with `apt-get install postgresql` ' +
      '(npm run setup does this), or point TEST_DATABASE_URL at a PostgreSQL database the tests may use.',
  );
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startTestCluster(): Promise<TestCluster> {
  const bin = findBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-pg-'));
  const asRoot = process.getuid?.() === 0;
  // initdb refuses to run as root, so the cluster belongs to the postgres system user then.
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe', cwd: dir })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe', cwd: dir });
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '--encoding=UTF8', '--locale=C.UTF-8']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    halt: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    resume: start,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
