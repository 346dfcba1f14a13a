import { z } from 'zod';

/**
 * The layout of a backup archive (a gzipped tar): `manifest.json` first, then the entries it lists,
 * each with its size and SHA-256. README "Backups" describes it for operators.
 */
export const PRODUCT = 'Vitrine';
export const ARCHIVE_FORMAT = 'vitrine-backup';
/** Raised when the layout changes; a restore refuses archives of a later version than its own. */
export const FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';

export const DATABASE_ENTRY = { sqlite: 'database/vitrine.db', postgres: 'database/vitrine.pgdump' } as const;
export const SETTINGS_ENTRY = 'settings/settings.json';
/** Files of the data folder keep their path below it under this prefix (data/secret, data/config-files/…). */
export const DATA_PREFIX = 'data/';
/**
 * What the data folder holds that a backup carries: the generated secret, the admins' uploads and
 * the originals editors uploaded (uploads/yyyy/mm/<id>/<file>, in the bucket under the same keys).
 */
export const DATA_ITEMS = ['secret', 'config-files', 'uploads'] as const;
/** The folder (or bucket prefix) of uploaded originals: the only copy of those assets' files. */
export const UPLOADED_ORIGINALS = 'uploads';
/** Made from the uploads again on request (other widths of uploaded photos): not backed up. */
export const MADE_UPLOADS = 'sized';

const entrySchema = z.object({
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestEntry = z.infer<typeof entrySchema>;

/** Only what tells a Vitrine archive apart; the rest is checked once the version is known. */
const identitySchema = z.object({
  product: z.literal(PRODUCT),
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number().int().min(1),
});

export const manifestSchema = identitySchema.extend({
  createdAt: z.string(),
  serverVersion: z.string(),
  database: z.object({ dialect: z.enum(['sqlite', 'postgres']), entry: z.string(), holds: z.string() }),
  notIncluded: z.array(z.string()),
  entries: z.array(entrySchema),
  /**
   * Where the portal kept uploaded originals (its DATA_DIR/uploads, or s3://bucket/prefix/uploads):
   * the assets' paths begin with it, and a restore elsewhere makes them begin with the new place.
   */
  uploadedOriginalsAt: z.string().optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const identityOf = (value: unknown) => identitySchema.safeParse(value);

/** Said in every manifest, so a reader of the archive knows where the config went and what is left out. */
export const DATABASE_HOLDS =
  'every table: the catalogue, accounts, bookmarks, share links, and the stored config with its history (config_document, config_history)';
export const NOT_INCLUDED = [
  'derivatives (thumbnails, previews, web videos): made again by the server after a restore',
  'conversions of downloads: made again when asked for',
  'other widths of uploaded photos (config-files/sized): made again when asked for',
  'the search index snapshot: rebuilt from the database at start',
  'the original media files of imported folders and buckets: they stay where they were imported from (originals uploaded by editors are included, under data/uploads)',
  'the outbox of mails written without SMTP',
];
