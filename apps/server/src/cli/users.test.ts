import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { vitrineCli, vitrineCliAtProductionCost } from '../../test/cli.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const vitrine = (args: string[], input = '', cli = vitrineCli) =>
  spawnSync(process.execPath, [...cli, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });

/** The stored password hash of an account, read from the portal's SQLite file. */
function storedHash(name: string): string {
  const db = new SQLite(path.join(dataDir, 'vitrine.db'), { readonly: true });
  try {
    const row = db.prepare('select password_hash from user_account where name = ?').get(name) as
      { password_hash: string } | undefined;
    return row?.password_hash ?? '';
  } finally {
    db.close();
  }
}

// Each call starts a process (several seconds on a busy machine), hence the long timeouts.
describe('vitrine users (issue #5: accounts from the command line)', () => {
  it('adds, lists, regroups, disables and re-enables accounts; passwords only from stdin', () => {
    const add = vitrine(
      ['users', 'add', 'maria', '--groups', 'users,admins', '--email', 'maria@example.org'],
      'a long secret\n',
    );
    expect(add.stderr).toBe('');
    expect(add.status).toBe(0);
    expect(vitrine(['users', 'list']).stdout).toBe('maria\tadmins,users\tnative\tactive\tmaria@example.org\n');

    expect(vitrine(['users', 'groups', 'maria', 'users']).status).toBe(0);
    expect(vitrine(['users', 'disable', 'maria']).status).toBe(0);
    expect(vitrine(['users', 'list']).stdout).toBe('maria\tusers\tnative\tdisabled\tmaria@example.org\n');
    expect(vitrine(['users', 'enable', 'maria']).status).toBe(0);
    expect(vitrine(['users', 'passwd', 'maria'], 'another secret\n').status).toBe(0);
  }, 120_000);

  it('refuses short passwords, unknown groups, duplicates and unknown users with a message', () => {
    const short = vitrine(['users', 'add', 'kim'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toBe('The password must have at least 8 characters.\n');
    expect(vitrine(['users', 'add', 'kim', '-g', 'nope'], 'long enough\n').stderr).toMatch(
      /^Unknown group\(s\): nope\./,
    );
    // The editors group is known without being declared among the groups (docs/editing.md).
    expect(vitrine(['users', 'add', 'eve', '-g', 'users,editors'], 'long enough\n').status).toBe(0);
    vitrine(['users', 'add', 'lee'], 'long enough\n');
    expect(vitrine(['users', 'add', 'LEE'], 'long enough\n').stderr).toBe('The user LEE exists already.\n');
    expect(vitrine(['users', 'passwd', 'nobody'], 'long enough\n').stderr).toBe('The user nobody was not found.\n');
  }, 120_000);

  it('finds an account with a non-ASCII name however it is typed: disable Émile, enable émile', () => {
    expect(vitrine(['users', 'add', 'Émile'], 'long enough\n').status).toBe(0);
    const disable = vitrine(['users', 'disable', 'Émile']);
    expect(disable.stderr).toBe('');
    expect(disable.status).toBe(0);
    expect(vitrine(['users', 'list']).stdout).toContain('Émile\tusers\tnative\tdisabled');
    expect(vitrine(['users', 'enable', 'E\u0301MILE']).status).toBe(0);
    expect(vitrine(['users', 'list']).stdout).toContain('Émile\tusers\tnative\tactive');
  }, 120_000);

  it('invites an account by mail and unblocks one blocked by failed logins (issue #50)', () => {
    const invite = vitrine(['users', 'invite', 'ivo', '--email', 'ivo@example.org', '--groups', 'users']);
    expect(invite.stderr).toBe('');
    expect(invite.stdout).toBe('Invited ivo: the link went to ivo@example.org.\n');
    const mails = readdirSync(path.join(dataDir, 'outbox')).map((f) =>
      readFileSync(path.join(dataDir, 'outbox', f), 'utf8'),
    );
    expect(mails.filter((m) => /^To: ivo@example\.org$/m.test(m))).toHaveLength(1);
    expect(storedHash('ivo')).toBe('');
    const bad = vitrine(['users', 'invite', 'ida', '--email', 'not-a-mail']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^The email /);

    const db = new SQLite(path.join(dataDir, 'vitrine.db'));
    try {
      db.prepare(
        'insert into login_attempt (name, failures, blocked_until, updated_at, subject) values (?, ?, ?, ?, ?)',
      ).run('client:192.0.2.1 account:ivo', 5, Date.now() + 600_000, Date.now(), 'account:ivo');
    } finally {
      db.close();
    }
    expect(vitrine(['users', 'unblock', 'IVO']).stdout).toBe('IVO unblocked.\n');
    const after = new SQLite(path.join(dataDir, 'vitrine.db'), { readonly: true });
    try {
      expect(after.prepare("select name from login_attempt where subject = 'account:ivo'").all()).toEqual([]);
    } finally {
      after.close();
    }
    expect(vitrine(['users', 'unblock', 'nobody']).stderr).toBe('The user nobody was not found.\n');
  }, 120_000);

  // The tests' `vitrine` loads a module that lowers the cost (made from test/cheap-password-hashes.ts); the
  // command itself, under the test runner's environment (NODE_ENV=test, VITEST) too, keeps the
  // production cost: nothing but that module lowers it.
  it('hashes at the production cost unless the tests load their cheaper cost first', () => {
    expect(vitrine(['users', 'add', 'cheap'], 'long enough\n').status).toBe(0);
    expect(storedHash('cheap')).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    const add = vitrine(['users', 'add', 'costly'], 'long enough\n', vitrineCliAtProductionCost);
    expect(add.stderr).toBe('');
    expect(add.status).toBe(0);
    expect(storedHash('costly')).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
  }, 120_000);
});
