import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { assetGroups } from '@vitrine/contract/fields';
import { oneOrByLanguage } from '@vitrine/contract/formats';
import { fieldsSettingSchema } from './access/field-audience.ts';
import { editingSettingSchema } from './access/editor.ts';
import { LANGUAGE_TAG } from '@vitrine/contract/languages';

/**
 * Groups when the settings file names none: registered users and guests see the portal, admins also
 * configure it (portal access and the original file, set 0, are the defaults of a group's entry).
 * Assets are visible to the groups named in their access list.
 */
const defaultGroups = [{ name: 'public' }, { name: 'users' }, { name: 'admins', guiAdmin: true }];

/**
 * A conversion set (admin-spec §3 "Convert set"): what a download in this set is made of. Set 0 is
 * always the original file and needs no entry here. `userGroups` may use the set (as may groups that
 * list it in their `downloadSets`); `assetGroups` are the kinds of asset it applies to (none: all).
 */
export const conversionSetSchema = z
  .object({
    id: z.number().int().min(1).describe('0 is reserved for the original file'),
    title: oneOrByLanguage(z.string().min(1), 'a title').describe(
      'One title, or one per interface language ({"en": …, "de": …})',
    ),
    format: z
      .enum(['jpeg', 'png', 'webp', 'tiff', 'avif', 'pdf', 'mp4', 'm4a'])
      .describe('pdf passes a PDF through unchanged; mp4 and m4a are made by ffmpeg'),
    maxSize: z.number().int().positive().optional().describe('Longest side in pixels; never enlarged'),
    quality: z.number().int().min(1).max(100).optional(),
    colourSpace: z.enum(['srgb', 'cmyk', 'b-w', 'keep']).default('srgb'),
    iccProfile: z.string().min(1).optional().describe('An ICC profile file to convert to (overrides colourSpace)'),
    density: z.number().int().positive().optional().describe('Resolution written into the file, pixels per inch'),
    keepMetadata: z.boolean().default(false).describe('Keep EXIF, IPTC and XMP of the original'),
    eager: z
      .boolean()
      .default(false)
      .describe('Make this set at import for every asset it applies to, rather than on the first download'),
    assetGroups: z.array(z.enum(assetGroups)).default([]),
    userGroups: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type ConversionSet = z.infer<typeof conversionSetSchema>;

const originalTitles: Record<string, string> = { en: 'Original file', de: 'Originaldatei' };

/** The title of a conversion set (0: the original file) in the first of `langs` it has. */
export function conversionSetTitle(file: { conversionSets: ConversionSet[] }, id: number, langs: string[]): string {
  const set = file.conversionSets.find((s) => s.id === id);
  const title = set ? set.title : originalTitles;
  if (typeof title === 'string') return title;
  for (const l of langs) if (title[l]) return title[l];
  return Object.values(title)[0] ?? '';
}

/** Sets that make sense for the demo catalogue: web and print pictures, web video, audio for players. */
const defaultConversionSets: z.input<typeof conversionSetSchema>[] = [
  {
    id: 1,
    title: { en: 'Web JPEG (2048 px)', de: 'Web-JPEG (2048 px)' },
    format: 'jpeg',
    maxSize: 2048,
    quality: 85,
    density: 72,
    assetGroups: ['image', 'document', '3d'],
    userGroups: ['public', 'users', 'admins'],
  },
  {
    id: 2,
    title: { en: 'Print TIFF (300 ppi)', de: 'Druck-TIFF (300 ppi)' },
    format: 'tiff',
    colourSpace: 'keep',
    density: 300,
    keepMetadata: true,
    assetGroups: ['image'],
    userGroups: ['users', 'admins'],
  },
  {
    id: 3,
    title: { en: 'Web video (MP4)', de: 'Web-Video (MP4)' },
    format: 'mp4',
    maxSize: 1280,
    assetGroups: ['video'],
    userGroups: ['public', 'users', 'admins'],
  },
  {
    id: 4,
    title: { en: 'Audio (AAC)', de: 'Audio (AAC)' },
    format: 'm4a',
    assetGroups: ['audio', 'video'],
    userGroups: ['users', 'admins'],
  },
  {
    id: 5,
    title: { en: 'PDF document', de: 'PDF-Dokument' },
    format: 'pdf',
    colourSpace: 'keep',
    keepMetadata: true,
    assetGroups: ['document'],
    userGroups: ['public', 'users', 'admins'],
  },
];

const smtpUrl = z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://');

/** How the groups an identity provider names become portal groups (just-in-time accounts). */
const groupMapping = {
  groupMap: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .default({})
    .describe('identity-provider group → portal group(s)'),
  defaultGroups: z.array(z.string()).default([]).describe('portal groups every account of this provider gets'),
};
const providerName = z
  .string()
  .regex(/^[a-z0-9-]{1,32}$/, 'lower-case letters, digits and - only')
  .describe('Shown on the login button and used in the provider URLs');

const oidcProviderSchema = z.object({
  name: providerName.default('oidc'),
  issuer: z.url().describe('Discovery runs against ISSUER/.well-known/openid-configuration'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scopes: z.string().default('openid profile email'),
  groupsClaim: z.string().default('groups'),
  ...groupMapping,
});
export type OidcProviderSettings = z.infer<typeof oidcProviderSchema>;

const samlProviderSchema = z.object({
  name: providerName.default('saml'),
  entryPoint: z.url().describe('The single sign-on URL of the identity provider'),
  idpCert: z.string().min(1).describe("The identity provider's signing certificate (PEM)"),
  idpIssuer: z.string().optional().describe('When set, assertions from any other issuer are refused'),
  spEntityId: z.string().optional().describe('Our entity id (audience); default: the metadata URL'),
  groupsAttribute: z.string().default('groups'),
  nameAttribute: z.string().optional().describe('Attribute with the user name; default: the NameID'),
  allowIdpInitiated: z
    .boolean()
    .default(false)
    .describe('Accept answers the identity provider sends unasked (IdP-initiated); they cannot be bound to a browser'),
  ...groupMapping,
});
export type SamlProviderSettings = z.infer<typeof samlProviderSchema>;

/** Kinds of expensive work that run through the work budget (jobs/work-budget.ts). */
export const workKinds = ['convert', 'pdf_page', 'model_view', 'checksum', 'thumbnail'] as const;
export type WorkKind = (typeof workKinds)[number];

/**
 * Slots of one kind of work, sized for 2 cores: a conversion (ffmpeg uses several threads) or a 3D
 * rasterising fills a core, so one per process and two in all; page renders and checksums are short
 * and wait on the disk as much as on a core; derivatives of an import are background work.
 */
const defaultPools: Record<WorkKind, { perProcess: number; total: number }> = {
  convert: { perProcess: 1, total: 2 },
  pdf_page: { perProcess: 2, total: 4 },
  model_view: { perProcess: 1, total: 2 },
  checksum: { perProcess: 2, total: 4 },
  thumbnail: { perProcess: 2, total: 2 },
};
const poolSchema = (kind: WorkKind) =>
  z
    .object({
      perProcess: z.number().int().min(1).max(64).describe('Works of this kind one process runs at once'),
      total: z.number().int().min(1).max(256).describe('Works of this kind all processes together run at once'),
    })
    .strict()
    .default(defaultPools[kind]);
/**
 * Fair use of the conversion pool (issue #48): a guest's request must not hold every converter, so
 * part of the pool is kept for account holders, and guests (share-link visitors too) may not start
 * conversions of long or large originals.
 */
const conversionFairnessSchema = z
  .object({
    accountShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        'Share of work.convert.total kept for callers with an account (rounded, at least one slot when above 0); ' +
          'guests, share-link visitors and background jobs use only the rest (0: no slot kept)',
      ),
    guestMaxMinutes: z
      .number()
      .positive()
      .default(10)
      .describe('Callers without an account may not have video or audio longer than this converted (403 too_long)'),
    guestMaxGB: z
      .number()
      .positive()
      .default(2)
      .describe('Callers without an account may not have originals larger than this converted (403 too_long)'),
  })
  .strict()
  .prefault({});
export type ConversionFairness = z.infer<typeof conversionFairnessSchema>;

const workSchema = z
  .object({
    convert: poolSchema('convert'),
    pdf_page: poolSchema('pdf_page'),
    model_view: poolSchema('model_view'),
    checksum: poolSchema('checksum'),
    thumbnail: poolSchema('thumbnail'),
    queue: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(8)
      .describe('Requests of one kind that may wait in one process for a slot; more get 429 busy'),
    waitSeconds: z
      .number()
      .positive()
      .max(300)
      .default(10)
      .describe('Longest a request waits for a slot before it gets 429 busy'),
    conversions: conversionFairnessSchema,
  })
  .strict()
  .prefault({});
export type WorkSettings = z.infer<typeof workSchema>;

/** One per-client limit: at most `max` requests of a kind from one client address within `minutes`. */
function clientLimitShape(max: number, minutes: number, what: string) {
  return {
    max: z.number().int().min(1).default(max).describe(`${what} from one client address within the window`),
    minutes: z
      .number()
      .int()
      .min(1)
      // The purge job forgets counts quiet for an hour; a longer window would be cut short.
      .max(60)
      .default(minutes)
      .describe('The window the requests are counted in, in minutes (at most 60)'),
  };
}

function clientLimit(max: number, minutes: number, what: string) {
  return z.strictObject(clientLimitShape(max, minutes, what)).prefault({});
}

/** A per-client limit that also holds a client to `burst` at once (user/rate-limits.ts `countedAs`). */
function burstLimit(max: number, minutes: number, what: string, burst: number) {
  return z
    .strictObject({
      ...clientLimitShape(max, minutes, what),
      burst: z
        .number()
        .int()
        .min(1)
        .nullable()
        .default(burst)
        .describe(
          'At most this many at once; the budget comes back evenly, one every `minutes` / `max` ' +
            '(null, or a burst of at least max, lets all max come at once)',
        ),
    })
    .prefault({});
}

/**
 * Per-client limits on what costs the portal work or mails and needs no account (docs/security.md
 * "What is rate-limited"); the defaults leave room for a whole office or school behind one address.
 */
const rateLimitsSchema = z
  .strictObject({
    guestSessions: burstLimit(60, 10, 'New guest sessions', 10),
    shareOpens: burstLimit(60, 10, 'Share links opened (each try, with or without a password)', 10),
    orders: clientLimit(20, 60, 'Order mails'),
    search: clientLimit(1200, 10, 'Searches and suggestions of callers without an account'),
    ssoLogins: burstLimit(60, 10, 'Single sign-on logins started (each SAML login stores its request)', 10),
  })
  .prefault({});
export type RateLimitName = keyof z.infer<typeof rateLimitsSchema>;

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
    session: z
      .object({
        idleHours: z
          .number()
          .positive()
          .default(24 * 14)
          .describe('A session unused this long expires'),
        maxDays: z
          .number()
          .positive()
          .default(30)
          .describe('A session this old ends, however recently it was used (the user logs in again)'),
      })
      .prefault({}),
    login: z
      .object({
        native: z.boolean().default(true).describe('Offer login with user name and password'),
        maxFailures: z
          .number()
          .int()
          .min(1)
          .default(5)
          .describe(
            'Failed logins in a row for one name from one client address before that address is blocked for the name; from all addresses together, before its logins are slowed',
          ),
        maxFailuresPerClient: z
          .number()
          .int()
          .min(1)
          .default(30)
          .describe('Failed logins from one client address, for any names, before the address is blocked'),
        blockMinutes: z
          .number()
          .positive()
          .default(15)
          .describe('How long a blocked address stays blocked; failures are forgotten after as long without one'),
        maxDelaySeconds: z
          .number()
          .min(0)
          .max(30)
          .default(4)
          .describe(
            'Longest wait before the answer to a login for a name (or a share-link password) that failed maxFailures times from all addresses together: 250 ms, doubling with each further failure',
          ),
        resetLinkHours: z.number().positive().default(2).describe('How long a password-reset link stays valid'),
        resetMailsPerAccount: z
          .number()
          .int()
          .min(1)
          .default(3)
          .describe('Password-reset mails asked for one name within a quiet hour'),
        resetMailsPerClient: z
          .number()
          .int()
          .min(1)
          .default(10)
          .describe('Password-reset mails asked for from one client address within a quiet hour'),
      })
      .prefault({}),
    rateLimits: rateLimitsSchema,
    mail: z
      .object({
        from: z.string().min(3).default('Vitrine <noreply@localhost>'),
        smtpUrl: smtpUrl.optional().describe('Without it, mails are written to DATA_DIR/outbox'),
      })
      .prefault({}),
    sso: z
      .object({
        oidc: z.array(oidcProviderSchema).default([]),
        saml: z.array(samlProviderSchema).default([]),
      })
      .prefault({}),
    work: workSchema,
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
