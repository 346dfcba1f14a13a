import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Creates an account through the real command line, the password on stdin. */
export function addUser(name: string, groups: string, password = 'journey secret'): void {
  execFileSync(process.execPath, ['apps/server/bin/vitrine.mjs', 'users', 'add', name, '--groups', groups], {
    cwd: root,
    input: `${password}\n`,
    env: {
      ...process.env,
      DATA_DIR: process.env.E2E_DATA_DIR,
      SETTINGS_FILE: path.join(root, 'e2e/settings.json'),
      LOG_LEVEL: 'silent',
    },
  });
}
