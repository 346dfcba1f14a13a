import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Stores a global config in the journey server's database, as the admin area will once it can save
 * (the portal reads the config on every request, so no restart is needed). Answers a function that
 * puts back what was stored before.
 */
export function storeGlobalConfig(config: Record<string, unknown>): () => void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set; run through e2e/playwright.config.ts');
  const db = new Database(path.join(dataDir, 'vitrine.db'));
  try {
    const before = db.prepare("select body from config_document where name = 'global' and lang = ''").get() as
      { body: string } | undefined;
    db.prepare(
      `insert into config_document (name, lang, body, updated_at) values ('global', '', ?, ?)
       on conflict (name, lang) do update set body = excluded.body, updated_at = excluded.updated_at`,
    ).run(JSON.stringify(config), new Date().toISOString());
    return () => {
      const restore = new Database(path.join(dataDir, 'vitrine.db'));
      try {
        if (before) {
          restore.prepare("update config_document set body = ? where name = 'global' and lang = ''").run(before.body);
        } else {
          restore.prepare("delete from config_document where name = 'global' and lang = ''").run();
        }
      } finally {
        restore.close();
      }
    };
  } finally {
    db.close();
  }
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
