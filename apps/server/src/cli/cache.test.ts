import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { vitrineCli } from '../../test/cli.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { withServices } from '../services.ts';
import { loadSettings } from '../settings.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cache-cli-'));
const dataDir = path.join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vitrine = (args: string[]) =>
  spawnSync(process.execPath, [...vitrineCli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });

// Each call starts a process (several seconds on a busy machine), hence the long timeout.
describe('vitrine cache', () => {
  it('shows the converted files, their size and the limit, and clears them', async () => {
    for (const name of ['a.jpg', 'b.jpg']) {
      await makeImage(path.join(dir, 'media', name), { width: name === 'a.jpg' ? 300 : 320, height: 200 });
    }
    const made = await withServices(loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), async (s) => {
      await s.importer().importFolder(path.join(dir, 'media'));
      const sources = await s.repositories.downloads.sources([1, 2]);
      const set = s.settings.file.conversionSets.find((c) => c.id === 1);
      return Promise.all(sources.map((src) => s.conversions.file(src, set)));
    });
    expect(made).toHaveLength(2);

    const shown = vitrine(['cache']);
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toMatch(
      /^Converted files: 2\nSize: {12}0\.\d MB\nLimit: {11}[\d.]+ [MG]B \(10 % of the data folder's disk, at most 20 GB\)\n$/,
    );

    const cleared = vitrine(['cache', 'clear']);
    expect(cleared.status).toBe(0);
    expect(cleared.stdout).toMatch(/^Removed 2 converted file\(s\), 0\.\d MB\.\n$/);
    for (const file of made) expect(existsSync(path.join(dataDir, 'conversions', file.key ?? 'missing'))).toBe(false);
    expect(vitrine(['cache']).stdout).toMatch(/^Converted files: 0\nSize: {12}0\.0 MB\n/);

    const wrong = vitrine(['cache', 'empty']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe('Unknown action "empty"; the only one is "clear".\n');
  }, 120_000);
});
