import path from 'node:path';
import Database from 'better-sqlite3';
import { request } from '@playwright/test';
import { configFileNames, type ConfigFileName } from '@vitrine/contract/config';
import { fillConfigDefaults } from '@vitrine/contract/global-config';
import { addUser } from './accounts.ts';
import { journeyPortal, type MediaStoreKind } from './portals.ts';

const API = '/assetportal/api/';
/** The GUI admin that journeys change the config as (e2e/settings.json: group `admins`). */
const CONFIG_ADMIN = 'config-keeper';
/** The portals on which the config admin has been made. */
const adminMade = new Set<MediaStoreKind>();

/**
 * Saves a global config through the admin call (`POST config/global`), as an admin in the admin area
 * does: `config` over the defaults. The portal reads the config on every request, so no restart is
 * needed. Answers a function that saves back what was stored before.
 */
export async function storeGlobalConfig(config: Record<string, unknown>): Promise<() => Promise<void>> {
  const api = await adminApi();
  const stored = await api.storedConfig();
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

/** An uploaded file (admin-spec §7 "POST config/{name}"): a named file, or the tile image with an id. */
export interface ConfigFile {
  name: ConfigFileName | 'thumbnail';
  id?: string;
}

/**
 * Uploads files through the admin call (`POST config/{name}`), as an admin in the admin area does,
 * whichever store the portal keeps them in. Answers a function that puts back what was uploaded
 * before: the same bytes again, or no file.
 */
export async function storeConfigFiles(
  files: (ConfigFile & { content: Buffer | string })[],
): Promise<() => Promise<void>> {
  const api = await adminApi();
  const before = await api.download(files);
  for (const file of files) await api.upload(file, Buffer.from(file.content));
  return async () => {
    try {
      await api.putBack(before, files);
    } finally {
      await api.dispose();
    }
  };
}

/** An API client of the journey's portal logged in as a GUI admin, echoing the XSRF cookie. */
async function adminApi() {
  const portal = journeyPortal();
  if (!adminMade.has(portal.store)) addUser(CONFIG_ADMIN, 'admins');
  adminMade.add(portal.store);
  const context = await request.newContext({ baseURL: portal.origin });
  const login = await context.post(`${API}session/get`, { data: { user: CONFIG_ADMIN, pass: 'journey secret' } });
  const { session } = (await login.json()) as { session: string | null };
  if (!login.ok() || !session) throw new Error(`the config admin could not log in: ${login.status()}`);
  const xsrf = (await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { authorization: `Bearer ${session}`, 'x-xsrf-token': xsrf };
  const send = async (method: 'GET' | 'POST', path: string, body?: { data?: unknown; file?: Buffer }) => {
    const response = await context.fetch(`${API}${path}`, {
      method,
      headers,
      ...(body?.data === undefined ? {} : { data: body.data }),
      ...(body?.file
        ? { multipart: { file: { name: 'file', mimeType: 'application/octet-stream', buffer: body.file } } }
        : {}),
    });
    if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
    return response;
  };
  const call = async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> =>
    (await (await send(method, path, { data })).json()) as T;
  const fileCall = ({ name, id }: ConfigFile) =>
    `config/${name}${id === undefined ? '' : `?id=${encodeURIComponent(id)}`}`;
  /** Uploads a file, or deletes it (an empty body) when `content` is null. */
  const upload = (file: ConfigFile, content: Buffer | null) =>
    send('POST', fileCall(file), content ? { file: content } : undefined);
  /** The bytes of each file that is uploaded, by its call. */
  const download = async (files: ConfigFile[]) => {
    const found = new Map<string, Buffer>();
    for (const file of files) {
      const response = await context.get(`${API}${fileCall(file)}`, { headers });
      if (response.ok()) found.set(fileCall(file), await response.body());
      else if (response.status() !== 404) throw new Error(`GET ${fileCall(file)}: ${response.status()}`);
    }
    return found;
  };
  return {
    call,
    upload,
    download,
    storedConfig: async () =>
      (await call<{ config: Record<string, unknown> | null }>('GET', 'config/global/stored')).config,
    /** Uploads each changed file's bytes of `before` again, and deletes the files that had none. */
    putBack: async (before: Map<string, Buffer>, files: ConfigFile[]) => {
      const now = await download(files);
      for (const file of files) {
        const [was, is] = [before.get(fileCall(file)), now.get(fileCall(file))];
        if (was === is || (was && is?.equals(was))) continue;
        await upload(file, was ?? null);
      }
    },
    dispose: () => context.dispose(),
  };
}

/** The tile images a stored global config names (its pre-searches' `src`). */
function tileImages(config: Record<string, unknown> | null): ConfigFile[] {
  const data = (config?.dashboard as { collections?: { data?: { src?: unknown }[] } } | undefined)?.collections?.data;
  return (data ?? []).flatMap((p) => (typeof p.src === 'string' ? [{ name: 'thumbnail' as const, id: p.src }] : []));
}

/**
 * Remembers everything admins can change (stored config documents and uploaded files) and answers a
 * function that puts it back, so journeys that save through the admin area leave the portal as the
 * other journeys expect it. Uploaded files (the named ones and the tile images the config names) go
 * through the admin calls, so they come back whichever store the portal keeps them in. The documents
 * (global config, translation sets, custom pages) are put back in the database: the admin calls save
 * them, but none removes a translation set or custom page that was not there before.
 */
export async function snapshotAdminState(): Promise<() => Promise<void>> {
  const portal = journeyPortal();
  const database = path.join(portal.dataDir, 'vitrine.db');
  const db = new Database(database);
  let documents: unknown[];
  try {
    documents = db.prepare('select name, lang, body, updated_at from config_document').all();
  } finally {
    db.close();
  }
  const api = await adminApi();
  const named: ConfigFile[] = configFileNames.map((name) => ({ name }));
  const filesBefore = [...named, ...tileImages(await api.storedConfig())];
  const bytesBefore = await api.download(filesBefore);
  return async () => {
    try {
      // The tile images named before or since; the documents afterwards, which forget the new ones.
      const tilesNow = tileImages(await api.storedConfig()).filter((t) => !filesBefore.some((f) => f.id === t.id));
      await api.putBack(bytesBefore, [...filesBefore, ...tilesNow]);
    } finally {
      await api.dispose();
    }
    const restore = new Database(database);
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
  };
}
