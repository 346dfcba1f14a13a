import { runTool } from './process.ts';

/**
 * PostgreSQL's own dump and restore tools (`pg_dump`, `pg_restore`, from the postgresql-client
 * package). The password of the database URL travels in PGPASSWORD, not on the command line, where
 * every user of the machine could read it.
 */
function connection(url: string): { uri: string; env: Record<string, string | undefined> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { uri: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Writes the whole database into `file` in pg_dump's custom format (one consistent snapshot). */
export async function dumpDatabase(url: string, file: string): Promise<void> {
  const { uri, env } = connection(url);
  await runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${uri}`], {
    env,
  });
}

/** The tables a custom-format dump holds (its table of contents). */
export async function tablesInDump(file: string): Promise<string[]> {
  const list = (await runTool('pg_restore', ['--list', file])).toString('utf8');
  // Lines such as "215; 1259 16390 TABLE public asset vitrine".
  return [...list.matchAll(/^\d+; \d+ \d+ TABLE \S+ (\S+) /gm)].map((m) => m[1]);
}

/** Restores a custom-format dump in one transaction: all of it, or nothing when it fails. */
export async function restoreDatabase(url: string, file: string): Promise<void> {
  const { uri, env } = connection(url);
  await runTool(
    'pg_restore',
    ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${uri}`, file],
    { env },
  );
}
