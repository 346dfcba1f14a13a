import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { journeyPortal } from './portals.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Imports a folder into the catalogue of the journey's portal through the real command line, as an operator
 * would; files missing since the folder's last import are marked gone. Another settings file gives
 * the new assets other access groups (`catalogue.defaultAccessGroups`).
 */
export function importFolder(folder: string, settingsFile = path.join(root, 'e2e/settings.json')): void {
  execFileSync(process.execPath, ['apps/server/bin/vitrine.mjs', 'import', folder], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...journeyPortal().env, SETTINGS_FILE: settingsFile },
  });
}

/**
 * A real picture made by ffmpeg (its format from the file name): a small test picture by default;
 * `source` names another lavfi source (noise compresses badly, so it makes a large file).
 */
export function makePicture(file: string, source = 'testsrc=size=320x240'): void {
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    '-frames:v',
    '1',
    '-q:v',
    '2',
    file,
  ]);
}

/** The id of the demo asset of a kind (`asset_groups`) with a file name, as a guest finds it. */
export async function demoAssetId(request: APIRequestContext, group: string, filename: string): Promise<string> {
  const res = await request.get('/assetportal/api/search', {
    params: { solr_q: '*', filter: JSON.stringify([{ key: 'asset_groups', values: [group] }]), solr_rows: '100' },
  });
  expect(res.ok()).toBe(true);
  const docs = ((await res.json()) as { response: { docs: { id: string; filename?: string }[] } }).response.docs;
  const id = docs.find((d) => d.filename === filename)?.id;
  expect(id, `${filename} in the demo catalogue`).toBeDefined();
  return id ?? '';
}
