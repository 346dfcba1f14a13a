// The portal's settings: the environment and the settings file, parsed and checked at start. The
// schemas of some areas of the file live beside their domains (*.settings.ts) and are composed here.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fieldsSettingSchema } from './access/field-audience.ts';
import { editingSettingSchema } from './access/editor.ts';
import { LANGUAGE_TAG } from '@vitrine/contract/languages';
import { conversionSetSchema, defaultConversionSets } from './derivatives/conversion.settings.ts';
import { workSchema } from './jobs/work.settings.ts';
import { insightsSettingSchema } from './insights/insights.settings.ts';
import { loginSettingSchema, sessionSettingSchema } from './session/login.settings.ts';
import { ssoSettingSchema } from './sso/sso.settings.ts';
import { rateLimitsSchema } from './user/rate-limit.settings.ts';

// The areas of the settings file that have modules of their own, importable from here as before.
export { conversionSetSchema, conversionSetTitle, type ConversionSet } from './derivatives/conversion.settings.ts';
export { workKinds, type ConversionFairness, type WorkKind, type WorkSettings } from './jobs/work.settings.ts';
export type { OidcProviderSettings, SamlProviderSettings } from './sso/sso.settings.ts';
export type { RateLimitName } from './user/rate-limit.settings.ts';

/**
 * Groups when the settings file names none: registered users and guests see the portal, admins also
 * configure it (portal access and the original file, set 0, are the defaults of a group's entry).
 * Assets are visible to the groups named in their access list.
 */
const defaultGroups = [{ name: 'public' }, { name: 'users' }, { name: 'admins', guiAdmin: true }];

const smtpUrl = z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://');

/**
 * Structured settings live in an optional JSON file (SETTINGS_FILE, else DATA_DIR/settings.json);
 * simple ones come from the environment. Both are validated at start: a bad value stops the start
 * with a message that names the key.
 */
const fileSettingsSchema = z
  .object({
    conversionSets: z
      .array(conversionSetSchema)
      .prefault(defaultConversionSets)
      .refine((sets) => new Set(sets.map((s) => s.id)).size === sets.length, 'conversion set ids must be unique'),
    download: z
      .object({
        maxAssets: z
          .number()
          .int()
          .min(-1)
          .default(500)
          .describe('Most assets one zip may hold; -1 for no limit (info/downloads max_assets)'),
        orderAddress: z
          .string()
          .min(3)
          .default('orders@localhost')
          .describe('Where the order process (run_order_process) sends its mails'),
        stripPrivateMetadata: z
          .boolean()
          .default(true)
          .describe(
            'Callers without an account (guests, share-link visitors) get originals (set 0) without GPS, serial numbers, owner and contact tags and the tags of fields hidden from them (docs/security.md "Stripped originals")',
          ),
      })
      .prefault({}),
    fields: fieldsSettingSchema,
    editing: editingSettingSchema,
    catalogue: z
      .object({
        defaultAccessGroups: z
          .array(z.string().min(1))
          .min(1)
          .default(['public', 'users', 'admins'])
          .describe('Groups that see an imported asset when its sidecar names none (access_groups)'),
        defaultLanguage: z
          .string()
          .regex(LANGUAGE_TAG)
          .optional()
          .describe('The language of caption files whose names state none (clip.vtt); without it they have none'),
      })
      .prefault({}),
    models: z
      .object({
        maxFileMb: z.number().positive().default(64).describe('3D model files larger than this get the typed icon'),
        maxTriangles: z
          .number()
          .int()
          .min(1)
          .default(2_000_000)
          .describe('3D models with more triangles than this get the typed icon'),
        timeoutSeconds: z
          .number()
          .positive()
          .default(60)
          .describe('Drawing a 3D model that takes longer is stopped (the typed icon is shown)'),
        maxMemoryMb: z
          .number()
          .int()
          .min(64)
          .default(512)
          .describe('Heap of the thread that draws one 3D model; a model that needs more gets the typed icon'),
      })
      .strict()
      .prefault({}),
    groups: z
      .array(
        z.object({
          name: z.string().min(1),
          portalAccess: z.boolean().default(true),
          guiAdmin: z.boolean().default(false),
          downloadSets: z.array(z.number().int().min(0)).default([0]),
        }),
      )
      .prefault(defaultGroups),
    shareLinks: z
      .object({
        groups: z
          .array(z.string().min(1))
          .default(['users', 'admins'])
          .describe('User groups whose members may create share links for people without an account'),
        maxAssets: z.number().int().min(1).max(10_000).default(1000).describe('Assets one share link may hold'),
        maxDays: z
          .number()
          .int()
          .min(1)
          .max(3650)
          .default(90)
          .describe('The longest a share link lives; a link without an expiry gets this, a later expiry is refused'),
      })
      .prefault({}),
    guest: z
      .object({ enabled: z.boolean().default(true), groups: z.array(z.string().min(1)).default(['public']) })
      .prefault({}),
    session: sessionSettingSchema,
    login: loginSettingSchema,
    rateLimits: rateLimitsSchema,
    mail: z
      .object({
        from: z.string().min(3).default('Vitrine <noreply@localhost>'),
        smtpUrl: smtpUrl.optional().describe('Without it, mails are written to DATA_DIR/outbox'),
      })
      .prefault({}),
    sso: ssoSettingSchema,
    work: workSchema,
    insights: insightsSettingSchema,
    conversionCache: z
      .object({
        maxGB: z
          .number()
          .positive()
          .optional()
          .describe(
            "Size the cache of converted downloads is trimmed to (least recently used first); default 10 % of the data folder's file system, at most 20 GB",
          ),
      })
      .strict()
      .prefault({}),
    customPages: z
      .object({
        imageOrigins: z
          .array(
            z
              .string()
              .regex(
                /^https:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i,
                'must be an https origin without a path, such as https://images.example.org or https://*.example.org',
              ),
          )
          .default([])
          .describe("Origins outside the portal that custom pages may show pictures from (the pages' CSP img-src)"),
      })
      .prefault({}),
  })
  .strict();
export type FileSettings = z.infer<typeof fileSettingsSchema>;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(v), 'must start with postgres://, sqlite: or file:')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SETTINGS_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).optional(),
  SMTP_URL: smtpUrl.optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '' || value.trim() === 'false') return false;
      const parsed = trustedProxies(value);
      if ('error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.proxies;
    })
    .describe("Take the client address from X-Forwarded-For sent by these proxies' addresses or CIDRs"),
  JOB_LEASE_SECONDS: z.coerce
    .number()
    .positive()
    .default(60)
    .describe(
      'A job whose process stopped answering for this long is taken over by another process; its work slots are free after this or 30 s, whichever is shorter',
    ),
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number()
    .min(0)
    .default(25)
    .describe('On SIGTERM, running requests and jobs get this long to finish; jobs still running are handed back'),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .default(60)
    .describe('A client must send its whole request (headers and body) within this time, or it gets 408'),
  METRICS_PORT: z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional())
    .describe('Serve Prometheus metrics at /metrics on this port, a listener of its own; off when not set'),
  METRICS_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('Address the metrics listener listens on (METRICS_PORT); keep it off the public network'),
  API_DOCS: z
    .enum(['true', 'false'])
    .default('false')
    .describe('Serve the Swagger UI at /assetportal/api/docs (the OpenAPI document at …/docs/json is always served)'),
  HSTS_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Above 0: every answer carries Strict-Transport-Security: max-age=<this> (only behind HTTPS)'),
  S3_BUCKET: z
    .string()
    .min(1)
    .optional()
    .describe('Keep derivatives, conversions and uploads in this bucket of an S3-compatible store, not in DATA_DIR'),
  S3_PREFIX: z
    .string()
    .default('')
    .refine((v) => !v.startsWith('/') && !v.split('/').includes('..'), 'must not start with / or contain ..')
    .describe("Put before every object's key (a trailing / is added when missing)"),
  S3_ENDPOINT: z.url().optional().describe('The S3 API address of a service other than AWS (MinIO, Ceph, …)'),
  S3_REGION: z.string().min(1).optional().describe("The bucket's region; default AWS_REGION, else us-east-1"),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .describe('Name the bucket in the path rather than the host name (MinIO and most self-hosted stores)'),
  S3_PRESIGN_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(0)
    .describe(
      'Above 0: media files are answered by a redirect to the bucket, signed for this long (0: sent by the server)',
    ),
  // Object store: presigned redirects' own origin and the cached listing of the bucket (issue #48).
  S3_PRESIGN_ENDPOINT: z
    .url()
    .optional()
    .describe(
      'The address presigned redirects send browsers to: a host that serves only this bucket; needed for S3_PRESIGN_SECONDS with path-style URLs',
    ),
  S3_LIST_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(10)
    .describe(
      "How long a listing of the bucket (which uploaded files exist) is reused; this process's own uploads show at once, other processes' within this time (0: list every time)",
    ),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_REGION: z.string().min(1).optional(),
});

/**
 * Every default of the environment and of the settings file, as the schemas fill them in: each is
 * written once, in its schema (the docs' tables are checked against these by settings-defaults.test.ts).
 */
export function settingsDefaults(): { env: z.infer<typeof envSchema>; file: FileSettings } {
  return { env: envSchema.parse({}), file: fileSettingsSchema.parse({}) };
}

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  publicUrl: string;
  secret: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  webDist: string;
  jobLeaseMs: number;
  /** How long a stopping process waits for running requests and jobs (SIGTERM). */
  shutdownGraceMs: number;
  /** Time a client has to send a whole request; also how long a connection may sit idle. */
  requestTimeoutMs: number;
  /**
   * Fastify's trustProxy: off, or the proxies (addresses, CIDRs) whose X-Forwarded-For names the
   * client; never every sender of the header.
   */
  trustProxy: false | string[];
  /** Whether the Swagger UI is served (API_DOCS); the OpenAPI document always is. */
  apiDocs: boolean;
  /** max-age of Strict-Transport-Security (HSTS_SECONDS); 0: the header is not sent. */
  hstsSeconds: number;
  /** The listener of Prometheus metrics (METRICS_PORT, METRICS_HOST); none when metrics are off. */
  metrics: { port: number; host: string } | undefined;
  /** Where derivatives, conversions and uploads are kept: folders under DATA_DIR, or a bucket. */
  mediaStore: MediaStoreSettings;
  /**
   * How to reach the S3-compatible service (S3_ENDPOINT, S3_REGION, …), also without S3_BUCKET: the
   * originals `vitrine import s3://bucket/prefix` imported are read through it.
   */
  s3: S3Connection;
  file: FileSettings;
}

export type MediaStoreSettings = { kind: 'folder' } | ({ kind: 's3' } & S3Settings);

/** How to reach an S3-compatible service, whichever bucket (README "Object storage"). */
export interface S3Connection {
  /** The service's address; none: AWS. */
  endpoint?: string | undefined;
  region: string;
  /** Bucket in the path (`https://host/bucket/key`) rather than in the host name, as MinIO wants. */
  forcePathStyle: boolean;
  /** None: the SDK's chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** How to reach the bucket of the media store (README "Object storage"). */
export interface S3Settings extends S3Connection {
  bucket: string;
  /** Put before every key ('' or ending in '/'). */
  prefix: string;
  /** Above 0: thumbnails, previews and players' files are answered by a redirect signed this long. */
  presignSeconds: number;
  /** The address presigned URLs name (S3_PRESIGN_ENDPOINT); none: the store's own. */
  presignEndpoint?: string | undefined;
  /** Seconds a listing of a folder of the bucket is reused (S3_LIST_CACHE_SECONDS); none or 0: never. */
  listCacheSeconds?: number | undefined;
}

/** How the environment reaches the S3-compatible service; both halves of a key pair, or neither. */
function s3ConnectionOf(e: z.infer<typeof envSchema>): S3Connection {
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new SettingsError(
      'Invalid settings in the environment:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither',
    );
  }
  return {
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION ?? e.AWS_REGION ?? 'us-east-1',
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

/** The media store the environment names. */
function mediaStoreOf(e: z.infer<typeof envSchema>, s3: S3Connection): MediaStoreSettings {
  if (!e.S3_BUCKET) return { kind: 'folder' };
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    prefix: e.S3_PREFIX === '' || e.S3_PREFIX.endsWith('/') ? e.S3_PREFIX : `${e.S3_PREFIX}/`,
    ...s3,
    presignSeconds: e.S3_PRESIGN_SECONDS,
    presignEndpoint: ownPresignOrigin(e, s3),
    listCacheSeconds: e.S3_LIST_CACHE_SECONDS,
  };
}

/**
 * Presigned redirects put the origin their URLs name into the web app's Content-Security-Policy. A
 * path-style URL (`https://host/bucket/key`) names the store's host, which serves every bucket on it:
 * pictures and scripts' fetches from any of them would be allowed. So with path-style URLs the
 * redirects need an address of the bucket's own (S3_PRESIGN_ENDPOINT); virtual-hosted URLs
 * (`https://bucket.host/key`) have one already.
 */
function ownPresignOrigin(e: z.infer<typeof envSchema>, s3: S3Connection): string | undefined {
  if (e.S3_PRESIGN_SECONDS === 0 || e.S3_PRESIGN_ENDPOINT !== undefined) return e.S3_PRESIGN_ENDPOINT;
  const host = s3.endpoint === undefined ? undefined : new URL(s3.endpoint).hostname.replace(/^\[|\]$/g, '');
  // The SDK names the bucket in the path also for an address given as an IP, and for a bucket whose
  // name is no host name label.
  const why = s3.forcePathStyle
    ? 'S3_FORCE_PATH_STYLE=true'
    : host !== undefined && isIP(host) !== 0
      ? `S3_ENDPOINT is an IP address (${host})`
      : !/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(e.S3_BUCKET ?? '')
        ? `the bucket name ${e.S3_BUCKET ?? ''} is no host name label`
        : undefined;
  if (why === undefined) return undefined;
  throw new SettingsError(
    'Invalid settings in the environment:\n  S3_PRESIGN_SECONDS: presigned redirects need an origin of the ' +
      `bucket's own, but its URLs name the bucket in the path (${why}), so the web app's Content-Security-Policy ` +
      `would allow every bucket on ${s3.endpoint ?? 'the store'}. Set S3_PRESIGN_ENDPOINT to an address that ` +
      'serves only this bucket (e.g. https://media.example.com), use virtual-hosted URLs, or set S3_PRESIGN_SECONDS=0.',
  );
}

/**
 * The proxies of `TRUST_PROXY`: addresses or CIDR ranges, comma-separated; or why they are refused.
 * `true` (believe whoever sends X-Forwarded-For) is refused: anyone could then claim any address
 * and escape every per-client limit.
 */
function trustedProxies(value: string): { proxies: string[] } | { error: string } {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.some((e) => e.toLowerCase() === 'true')) {
    return {
      error:
        'true would believe X-Forwarded-For from any client; name the proxies in front of the portal instead (addresses or CIDRs, comma-separated, e.g. 10.0.0.5 or 10.0.0.0/24)',
    };
  }
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
    if (family === 0 || !validBits || extra !== undefined) {
      return { error: `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.5 or 10.0.0.0/24)` };
    }
  }
  return { proxies: entries };
}

export class SettingsError extends Error {}

function describeIssues(source: string, error: z.ZodError): string {
  const lines = error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  return `Invalid settings in ${source}:\n${lines.join('\n')}`;
}

function readSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    // An empty or short secret would let anyone forge signed media URLs.
    if (secret.length < 32) {
      throw new SettingsError(
        `The secret in ${file} must have at least 32 characters; remove the file to make a new one.`,
      );
    }
    return secret;
  }
  // Processes starting at once on a shared DATA_DIR must end up with one secret: each writes its
  // own candidate aside and links it into place, which only the first can do; all read the winner.
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(candidate, randomBytes(32).toString('base64url'), { mode: 0o600 });
  try {
    linkSync(candidate, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(candidate);
  }
  return readFileSync(file, 'utf8').trim();
}

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

/**
 * Where the portal keeps its state, as the environment names it: the data folder, the settings file
 * and the database. Reads and creates nothing (`vitrine restore` must find an empty target as it is).
 */
export function settingsLocations(env: Record<string, string | undefined> = process.env): {
  dataDir: string;
  /** The settings file read at start (it may not exist unless SETTINGS_FILE names it). */
  settingsFile: string;
  database: Settings['database'];
  /** Where uploads are kept (a restore puts them there). */
  mediaStore: MediaStoreSettings;
  s3: S3Connection;
} {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new SettingsError(describeIssues('the environment', parsed.error));
  const e = parsed.data;
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new SettingsError(
      'Invalid settings in the environment:\n  METRICS_PORT: must differ from PORT (metrics have a listener of their own)',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const settingsFile = e.SETTINGS_FILE ? path.resolve(e.SETTINGS_FILE) : path.join(dataDir, 'settings.json');
  const url = e.DATABASE_URL;
  const database: Settings['database'] =
    url && /^postgres(ql)?:\/\//.test(url)
      ? { dialect: 'postgres', url }
      : { dialect: 'sqlite', file: url ? url.replace(/^(sqlite|file):/, '') : path.join(dataDir, 'vitrine.db') };
  const s3 = s3ConnectionOf(e);
  return { dataDir, settingsFile, database, mediaStore: mediaStoreOf(e, s3), s3 };
}

export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new SettingsError(describeIssues('the environment', parsed.error));
  const e = parsed.data;
  const { dataDir, settingsFile, database, mediaStore, s3 } = settingsLocations(env);
  mkdirSync(dataDir, { recursive: true });

  let raw: unknown = {};
  if (existsSync(settingsFile)) {
    try {
      raw = JSON.parse(readFileSync(settingsFile, 'utf8'));
    } catch (err) {
      throw new SettingsError(`Settings file ${settingsFile} is not valid JSON: ${(err as Error).message}`);
    }
  } else if (e.SETTINGS_FILE) {
    throw new SettingsError(`Settings file ${settingsFile} (SETTINGS_FILE) does not exist`);
  }
  const file = fileSettingsSchema.safeParse(raw);
  if (!file.success) throw new SettingsError(describeIssues(settingsFile, file.error));

  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    publicUrl: e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`,
    secret: e.SECRET ?? readSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : defaultWebDist,
    jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    trustProxy: e.TRUST_PROXY,
    apiDocs: e.API_DOCS === 'true',
    hstsSeconds: e.HSTS_SECONDS,
    metrics: e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    mediaStore,
    s3,
    file: e.SMTP_URL ? { ...file.data, mail: { ...file.data.mail, smtpUrl: e.SMTP_URL } } : file.data,
  };
}

/** Mail settings with the outbox folder used when no SMTP server is configured. */
export function mailSettings(settings: Settings): { from: string; smtpUrl?: string; outbox: string } {
  return { ...settings.file.mail, outbox: path.join(settings.dataDir, 'outbox') };
}
