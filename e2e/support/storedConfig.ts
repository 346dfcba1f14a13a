import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { request } from '@playwright/test';
import { fillConfigDefaults } from '@vitrine/contract/global-config';
import { addUser } from './accounts.ts';

const API = '/assetportal/api/';
/** The GUI admin that journeys change the config as (e2e/settings.json: group `admins`). */
const CONFIG_ADMIN = 'config-keeper';
let adminMade = false;

/**
 * Saves a global config through the admin call (`POST config/global`), as an admin in the admin area
 * does: `config` over the defaults. The portal reads the config on every request, so no restart is
 * needed. Answers a function that saves back what was stored before.
 */
export async function storeGlobalConfig(config: Record<string, unknown>): Promise<() => Promise<void>> {
  const api = await adminApi();
  const stored = (await api.call<{ config: unknown }>('GET', 'config/global/stored')).config;
  await api.call('POST', 'config/global', fillConfigDefaults(config));
  return async () => {
    try {
      // Nothing stored before: the defaults, which is what the portal showed then.
      await api.call('POST', 'config/global', fillConfigDefaults(stored ?? {}));
    } finally {
      await api.dispose();
    }
  };
}

/** An API client of the journey server logged in as a GUI admin, echoing the XSRF cookie. */
async function adminApi() {
  if (!adminMade) addUser(CONFIG_ADMIN, 'admins');
  adminMade = true;
  const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 18473}`;
  const context = await request.newContext({ baseURL });
  const login = await context.post(`${API}session/get`, { data: { user: CONFIG_ADMIN, pass: 'journey secret' } });
  const { session } = (await login.json()) as { session: string | null };
  if (!login.ok() || !session) throw new Error(`the config admin could not log in: ${login.status()}`);
  const xsrf = (await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const call = async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> => {
    const response = await context.fetch(`${API}${path}`, {
      method,
      data,
      headers: { authorization: `Bearer ${session}`, 'x-xsrf-token': xsrf },
    });
    if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return { call, dispose: () => context.dispose() };
}

/**
 * Remembers everything admins can change (stored config documents and uploaded files) and answers a
 * function that puts it back, so journeys that save through the admin area leave the portal as the
 * other journeys expect it.
 */
export function snapshotAdminState(): () => void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set; run through e2e/playwright.config.ts');
  const files = path.join(dataDir, 'config-files');
  const filesBefore = new Set(existsSync(files) ? readdirSync(files) : []);
  const db = new Database(path.join(dataDir, 'vitrine.db'));
  let documents: unknown[];
  try {
    documents = db.prepare('select name, lang, body, updated_at from config_document').all();
  } finally {
    db.close();
  }
  return () => {
    const restore = new Database(path.join(dataDir, 'vitrine.db'));
    try {
      restore.transaction(() => {
        restore.prepare('delete from config_document').run();
        const insert = restore.prepare(
          'insert into config_document (name, lang, body, updated_at) values (@name, @lang, @body, @updated_at)',
        );
        for (const d of documents) insert.run(d);
      })();
    } finally {
      restore.close();
    }
    for (const f of existsSync(files) ? readdirSync(files) : []) {
      if (!filesBefore.has(f)) rmSync(path.join(files, f), { recursive: true, force: true });
    }
  };
}
