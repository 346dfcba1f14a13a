import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { API_BASE_PATH } from '@vitrine/contract/call';

const cli = path.resolve(import.meta.dirname, '../apps/server/bin/vitrine.mjs');
const XSRF = 'bench-xsrf';

/** An account on the portal of `env` (its data folder and database), made through the command line. */
export function addAccount(env: Record<string, string>, name: string, password: string, groups: string[]): void {
  execFileSync(process.execPath, [cli, 'users', 'add', name, '--groups', groups.join(',')], {
    input: `${password}\n`,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'ignore', 'inherit'],
  });
}

/** The headers of an account's calls to the server at `url`: its session and the XSRF pair. */
export async function logIn(url: string, name: string, password: string): Promise<Record<string, string>> {
  const xsrf = { cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF };
  const res = await fetch(`${url}${API_BASE_PATH}session/get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...xsrf },
    body: JSON.stringify({ user: name, pass: password }),
  });
  const session = (await res.json()) as { session?: string };
  if (res.status !== 200 || !session.session) throw new Error(`the login of ${name} answered ${res.status}`);
  return { authorization: `Bearer ${session.session}`, ...xsrf };
}
