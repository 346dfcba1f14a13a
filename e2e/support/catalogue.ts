import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Imports a folder into the journey server's catalogue through the real command line, as an operator
 * would; files missing since the folder's last import are marked gone.
 */
export function importFolder(folder: string): void {
  execFileSync(process.execPath, ['apps/server/bin/vitrine.mjs', 'import', folder], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: process.env.E2E_DATA_DIR,
      SETTINGS_FILE: path.join(root, 'e2e/settings.json'),
      LOG_LEVEL: 'silent',
    },
  });
}

/** A small real PNG made by ffmpeg's test source. */
export function makePicture(file: string): void {
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240',
    '-frames:v',
    '1',
    file,
  ]);
}
