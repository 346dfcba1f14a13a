import type * as nodeFs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadSettings, SettingsError } from './settings.ts';

let secretFileLooksMissing = false;
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof nodeFs>();
  const existsSync = (file: string) => !(secretFileLooksMissing && file.endsWith('secret')) && fs.existsSync(file);
  return { ...fs, existsSync, default: { ...fs, existsSync } };
});

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'vitrine-settings-'));

describe('settings', () => {
  it('uses the documented defaults', () => {
    const dir = tempDir();
    const s = loadSettings({ DATA_DIR: dir });
    expect(s.port).toBe(8080);
    expect(s.host).toBe('127.0.0.1');
    expect(s.database).toEqual({ dialect: 'sqlite', file: path.join(dir, 'vitrine.db') });
    expect(s.publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('generates the secret once and keeps it in DATA_DIR', () => {
    const dir = tempDir();
    const first = loadSettings({ DATA_DIR: dir }).secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'secret'), 'utf8')).toBe(first);
    expect(loadSettings({ DATA_DIR: dir }).secret).toBe(first);
  });

  it('a process that lost the race to create the secret takes the one already written', () => {
    const dir = tempDir();
    const winner = 'w'.repeat(40);
    writeFileSync(path.join(dir, 'secret'), winner, { mode: 0o600 });
    // As if this process looked before the other one wrote its secret.
    secretFileLooksMissing = true;
    try {
      expect(loadSettings({ DATA_DIR: dir }).secret).toBe(winner);
    } finally {
      secretFileLooksMissing = false;
    }
    expect(readFileSync(path.join(dir, 'secret'), 'utf8')).toBe(winner);
    expect(readdirSync(dir)).toEqual(['secret']);
  });

  it('refuses to start with a secret file that is empty or short', () => {
    for (const content of ['', '   \n', 'short']) {
      const dir = tempDir();
      writeFileSync(path.join(dir, 'secret'), content, { mode: 0o600 });
      expect(() => loadSettings({ DATA_DIR: dir }), JSON.stringify(content)).toThrow(SettingsError);
    }
  });

  it('trusts X-Forwarded-For only from the proxies TRUST_PROXY names (addresses or CIDRs)', () => {
    expect(loadSettings({ DATA_DIR: tempDir() }).trustProxy).toBe(false);
    expect(loadSettings({ DATA_DIR: tempDir(), TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadSettings({ DATA_DIR: tempDir(), TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.2',
    ]);
    expect(loadSettings({ DATA_DIR: tempDir(), TRUST_PROXY: '10.0.0.0/24,2001:db8::/32,::1' }).trustProxy).toEqual([
      '10.0.0.0/24',
      '2001:db8::/32',
      '::1',
    ]);
  });

  it('serves metrics only when METRICS_PORT is set, on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadSettings({ DATA_DIR: tempDir() }).metrics).toBeUndefined();
    expect(loadSettings({ DATA_DIR: tempDir(), METRICS_PORT: '' }).metrics).toBeUndefined();
    expect(loadSettings({ DATA_DIR: tempDir(), METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    expect(loadSettings({ DATA_DIR: tempDir(), METRICS_PORT: '9464', METRICS_HOST: '10.0.0.7' }).metrics).toEqual({
      port: 9464,
      host: '10.0.0.7',
    });
    expect(() => loadSettings({ DATA_DIR: tempDir(), METRICS_PORT: 'on' })).toThrow(/METRICS_PORT/);
    expect(() => loadSettings({ DATA_DIR: tempDir(), PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
  });

  it('refuses TRUST_PROXY=true at start, asking for the proxies by name', () => {
    expect(() => loadSettings({ DATA_DIR: tempDir(), TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true would believe X-Forwarded-For from any client; name the proxies/,
    );
    expect(() => loadSettings({ DATA_DIR: tempDir(), TRUST_PROXY: '10.0.0.1,true' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses a TRUST_PROXY entry that is no address or CIDR, naming it', () => {
    for (const bad of ['proxy.example.org', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/8/8', '*', '1']) {
      expect(() => loadSettings({ DATA_DIR: tempDir(), TRUST_PROXY: bad }), bad).toThrow(
        new RegExp(`TRUST_PROXY: "${bad.replace(/[.*]/g, '\\$&')}" is not an IP address or CIDR range`),
      );
    }
  });

  it('has per-client rate limits with defaults, and refuses windows beyond an hour naming the key', () => {
    expect(loadSettings({ DATA_DIR: tempDir() }).file.rateLimits).toEqual({
      guestSessions: { max: 60, minutes: 10, burst: 10 },
      shareOpens: { max: 60, minutes: 10, burst: 10 },
      orders: { max: 20, minutes: 60 },
      search: { max: 1200, minutes: 10 },
      ssoLogins: { max: 60, minutes: 10, burst: 10 },
    });
    const dir = tempDir();
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ rateLimits: { search: { max: 5 } } }));
    expect(loadSettings({ DATA_DIR: dir }).file.rateLimits.search).toEqual({ max: 5, minutes: 10 });
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ rateLimits: { orders: { minutes: 120 } } }));
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/rateLimits\.orders\.minutes/);
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ rateLimits: { searches: { max: 5 } } }));
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/searches/);
  });

  it('selects PostgreSQL from a postgres:// DATABASE_URL', () => {
    const s = loadSettings({ DATA_DIR: tempDir(), DATABASE_URL: 'postgres://u@localhost/vitrine' });
    expect(s.database).toEqual({ dialect: 'postgres', url: 'postgres://u@localhost/vitrine' });
  });

  it('keeps media in DATA_DIR unless S3_BUCKET names a bucket, then reads the object store settings', () => {
    expect(loadSettings({ DATA_DIR: tempDir() }).mediaStore).toEqual({ kind: 'folder' });
    const env = { DATA_DIR: tempDir(), S3_BUCKET: 'media', S3_PREFIX: 'portal', AWS_REGION: 'eu-central-1' };
    expect(loadSettings(env).mediaStore).toEqual({
      kind: 's3',
      bucket: 'media',
      prefix: 'portal/',
      endpoint: undefined,
      region: 'eu-central-1',
      forcePathStyle: false,
      credentials: undefined,
      presignSeconds: 0,
      listCacheSeconds: 10,
    });
    const minio = loadSettings({
      ...env,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    }).mediaStore;
    expect(minio).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
  });

  it('refuses half a key pair, a prefix that climbs out, and a path style that is no boolean', () => {
    const env = { DATA_DIR: tempDir(), S3_BUCKET: 'media' };
    expect(() => loadSettings({ ...env, S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY: set both/);
    expect(() => loadSettings({ ...env, S3_PREFIX: 'a/../b' })).toThrow(/S3_PREFIX/);
    expect(() => loadSettings({ ...env, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });

  it('stops with a message naming the bad environment key', () => {
    expect(() => loadSettings({ DATA_DIR: tempDir(), PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('stops with a message naming the bad key of the settings file', () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ conversionSets: [{ id: 1, title: 'Web JPEG', format: 'gif' }] }),
    );
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/conversionSets\.0\.format/);
  });

  it('refuses a conversion set title keyed by something other than a language code, saying so', () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ conversionSets: [{ id: 1, title: { EN: 'Web JPEG' }, format: 'jpeg' }] }),
    );
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(
      /conversionSets\.0\.title: has the key "EN", which must be a two-letter ISO 639-1 language code/,
    );
  });

  it('checks the limits of 3D model drawing at start', () => {
    const dir = tempDir();
    expect(loadSettings({ DATA_DIR: dir }).file.models).toEqual({
      maxFileMb: 64,
      maxTriangles: 2_000_000,
      timeoutSeconds: 60,
      maxMemoryMb: 512,
    });
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ models: { maxTriangles: 0 } }));
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/models\.maxTriangles/);
  });

  it('refuses unknown top-level keys so that typos do not pass silently', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ conversionSet: [] }));
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/conversionSet/);
  });

  it('sizes the work pools for 2 cores unless told, and names a bad pool setting', () => {
    const dir = tempDir();
    expect(loadSettings({ DATA_DIR: dir }).file.work).toMatchObject({
      convert: { perProcess: 1, total: 2 },
      queue: 8,
      waitSeconds: 10,
    });
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ work: { convert: { perProcess: 4 }, pdf_page: { perProcess: 0, total: 2 } } }),
    );
    expect(() => loadSettings({ DATA_DIR: dir })).toThrow(/work\.convert\.total[\s\S]*work\.pdf_page\.perProcess/);
  });
});
