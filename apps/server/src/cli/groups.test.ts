import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { vitrineCli } from '../../test/cli.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-groups-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const vitrine = (args: string[], input = '') =>
  spawnSync(process.execPath, [...vitrineCli, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });

// Each call starts a process (several seconds on a busy machine), hence the long timeout.
describe('vitrine groups (issue #50: groups for scripts and first setup)', () => {
  it('lists, adds, changes and removes groups as the admin area does, refusing with a message', () => {
    const listed = vitrine(['groups', 'list']);
    expect(listed.stderr).toBe('');
    expect(listed.stdout.split('\n')).toContain(
      'admins\tportal,admin,share\tsets:0\tfields:gps_lat,gps_lon\taccounts:0\tassets:0',
    );

    const add = vitrine(['groups', 'add', 'agents', '--sets', '0', '--share', '--editors']);
    expect(add.stderr).toBe('');
    expect(add.stdout).toBe('Added the group agents.\n');
    // Accounts may be members of it at once.
    expect(vitrine(['users', 'add', 'ann', '-g', 'agents,admins'], 'a long secret\n').status).toBe(0);

    expect(vitrine(['groups', 'set', 'agents', '--no-share', '--rename', 'partners']).status).toBe(0);
    expect(vitrine(['groups', 'list']).stdout.split('\n')).toContain(
      'partners\tportal,editors\tsets:0\tfields:-\taccounts:1\tassets:0',
    );

    const bad = vitrine(['groups', 'add', 'x', '--sets', '9']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('downloadSets: there is no conversion set 9.\n');
    const named = vitrine(['groups', 'remove', 'partners']);
    expect(named.status).toBe(1);
    expect(named.stderr).toBe('The group partners cannot be removed while it is named by 1 account.\n');
    const lastAdmin = vitrine(['groups', 'set', 'admins', '--no-admin']);
    expect(lastAdmin.status).toBe(1);
    expect(lastAdmin.stderr).toMatch(/^admins is the last admin group with members/);

    expect(vitrine(['users', 'groups', 'ann', 'admins']).status).toBe(0);
    expect(vitrine(['groups', 'remove', 'partners']).stdout).toBe('Removed the group partners.\n');
    expect(vitrine(['groups', 'list']).stdout).not.toMatch(/^partners/m);
  }, 180_000);
});
