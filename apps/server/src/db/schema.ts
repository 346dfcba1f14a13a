import type { Generated } from 'kysely';

/** Tables of the database. Each domain adds its tables here together with a migration. */
export interface Database {
  config_document: ConfigDocumentTable;
  config_history: ConfigHistoryTable;
  group_rights_state: GroupRightsStateTable;
  asset: AssetTable;
  asset_value: AssetValueTable;
  asset_caption: AssetCaptionTable;
  collection: CollectionTable;
  asset_collection: AssetCollectionTable;
  asset_access: AssetAccessTable;
  catalogue_state: CatalogueStateTable;
  catalogue_change: CatalogueChangeTable;
  catalogue_change_written: CatalogueChangeWrittenTable;
  catalogue_reader: CatalogueReaderTable;
  placeholder_state: PlaceholderStateTable;
  deferred_index: DeferredIndexTable;
  user_account: UserAccountTable;
  user_group: UserGroupTable;
  session: SessionTable;
  search_state: SearchStateTable;
  job: JobTable;
  work_slot: WorkSlotTable;
  derivative: DerivativeTable;
  derivative_claim: DerivativeClaimTable;
  asset_signature: AssetSignatureTable;
  login_attempt: LoginAttemptTable;
  password_reset: PasswordResetTable;
  sso_code: SsoCodeTable;
  saml_request: SamlRequestTable;
  saml_assertion: SamlAssertionTable;
  download_lock: DownloadLockTable;
  conversion: ConversionTable;
  file_checksum: FileChecksumTable;
  download: DownloadTable;
  download_once: DownloadOnceTable;
  zip_list: ZipListTable;
  insight_event: InsightEventTable;
  insight_daily: InsightDailyTable;
  insight_monthly: InsightMonthlyTable;
  insight_state: InsightStateTable;
  insight_span: InsightSpanTable;
  bookmark: BookmarkTable;
  share_link: ShareLinkTable;
  share_link_asset: ShareLinkAssetTable;
  asset_edit: AssetEditTable;
  edit_batch: EditBatchTable;
  edit_change: EditChangeTable;
  upload: UploadTable;
}

export interface ConfigDocumentTable {
  name: string;
  lang: string;
  body: string;
  updated_at: Generated<string>;
}

export interface ConfigHistoryTable {
  id: Generated<number>;
  name: string;
  lang: string;
  body: string;
  saved_by: string;
  saved_at: string;
  restored_from: number | null;
}

/** One row: the config_history id of the groups in force (0: the settings file decides). */
export interface GroupRightsStateTable {
  id: number;
  version: number;
}

/** Dates are epoch milliseconds. `metadata` holds the raw extracted metadata as JSON text. */
export interface AssetTable {
  id: Generated<number>;
  source_path: string;
  filename: string;
  sha256: string;
  file_size: number;
  mime: string;
  format: string;
  asset_group: string;
  /** 'bin': an editor moved it to the bin (decision 0250); only 'active' assets are visible. */
  status: Generated<'active' | 'gone' | 'bin'>;
  created: number | null;
  imp_date: number;
  updated_at: number;
  pixel_x: number | null;
  pixel_y: number | null;
  bbox_x: number | null;
  bbox_y: number | null;
  color_code: Generated<number>;
  rating: number | null;
  duration: number | null;
  page_count: number | null;
  gps_lat: number | null;
  gps_lon: number | null;
  obj_dload_cnt: Generated<number>;
  metadata: Generated<string>;
  /** Hash of the file's content and its sidecar metadata at the last import (added by the jobs migration). */
  fingerprint: string | null;
  /** The imported folder, symlinks resolved; the file is used only while it lies inside (null: imported before this was kept). */
  import_root: string | null;
  /** 1 when a browser plays the original file itself (container and codecs), so the player may offer it. */
  plays_in_browser: Generated<number>;
}

/** Caption tracks of a video, from the WebVTT or SubRip files beside it at import. */
export interface AssetCaptionTable {
  asset_id: number;
  /** 1, 2, …: the track's number among the video's captions. */
  track: number;
  /** BCP 47 tag; '' when the file's name states none and the catalogue has no default language. */
  lang: string;
  format: 'vtt' | 'srt';
  filename: string;
  sha256: string;
  content: string;
}

/** Multi-valued and per-language field values; lang '' when the value has no language. */
export interface AssetValueTable {
  asset_id: number;
  field: string;
  lang: Generated<string>;
  ord: Generated<number>;
  value: string;
}

export interface CollectionTable {
  id: Generated<number>;
  name: string;
  path: string;
  parent_id: number | null;
  thumbnail_asset_id: number | null;
  created_at: number;
}

export interface AssetCollectionTable {
  asset_id: number;
  collection_id: number;
}

export interface AssetAccessTable {
  asset_id: number;
  group_name: string;
}

export interface CatalogueStateTable {
  id: number;
  /** The change sequence: the number of the last catalogue change, taken by each write transaction. */
  generation: number;
  /** The catalogue's identity, so an index snapshot of another database is not used. */
  instance: string | null;
  /** Changes up to this sequence were pruned from catalogue_change. */
  pruned_through: Generated<number>;
}

/** A reader of the change log (a server process or an index snapshot) and the last change it holds. */
export interface CatalogueReaderTable {
  reader: string;
  seq: number;
  /** When it last said so (ms); readers not seen for a day no longer hold changes back. */
  seen_at: number;
}

/** Assets (a run of ids) a catalogue change touched; `seq` is the change's catalogue generation. */
export interface CatalogueChangeTable {
  seq: number;
  first_id: number;
  last_id: number;
  /** 1 when the change only folded download counts: no text changed, the full-text index skips it. */
  count_only: Generated<number>;
}

/** A part of a change as its writer wrote it, for the catalogue's other processes (search-engine written-change.ts). */
export interface CatalogueChangeWrittenTable {
  seq: number;
  part: number;
  body: string;
}

export interface UserAccountTable {
  id: Generated<number>;
  name: string;
  /** nameKey(name): what lookups by name compare. */
  name_key: string;
  email: string | null;
  display_name: string | null;
  password_hash: string | null;
  auth_source: Generated<string>;
  external_id: string | null;
  disabled: Generated<number>;
  locale: string | null;
  created_at: number;
  /** The last login, native or single sign-on (null: none since it was recorded). */
  last_login_at: Generated<number | null>;
}

export interface UserGroupTable {
  user_id: number;
  group_name: string;
  /** 'hand': given by an admin or the CLI; 'provider': from the identity provider's `groupMap` at login. */
  origin: Generated<'hand' | 'provider'>;
}

/** `id` is the SHA-256 (hex) of the session token; the token itself is never stored. */
export interface SessionTable {
  id: string;
  user_id: number | null;
  created_at: number;
  last_seen: number;
  expires_at: number;
  locale: string | null;
  /** For a visitor who opened a share link: the link; the session ends with it. */
  share_id?: number | null;
}

/** The kind of derivative whose first page carries the asset's placeholder (ThumbHash). */
export const PLACEHOLDER_KIND = 'thumb';

/** How many thumbnail placeholders were written (one row, id 1): raised with each. */
export interface PlaceholderStateTable {
  id: number;
  mark: Generated<number>;
}

/** An index a bulk write dropped to make once after its rows, with the statement that makes it. */
export interface DeferredIndexTable {
  name: string;
  definition: string;
}

/** How far the full-text index has caught up with catalogue changes. */
export interface SearchStateTable {
  id: number;
  /** The last change sequence (catalogue_change.seq) applied; -1 until a full load ends. */
  text_watermark: number;
  /** The sequence a running full load started at (-1: none running). */
  text_load_seq: Generated<number>;
  /** The last asset id a running full load has written. */
  text_load_after: Generated<number>;
  /** The fields whose words the index holds (null: not recorded yet). */
  text_fields: string | null;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** A unit of background work; `key` makes enqueueing idempotent, the lease survives a dead process. */
export interface JobTable {
  id: Generated<number>;
  name: string;
  key: string;
  payload: string;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** A slot of expensive work taken by one process (`holder`) until `expires_at`; see jobs/work-budget.ts. */
export interface WorkSlotTable {
  kind: string;
  slot: number;
  holder: string;
  expires_at: number;
}

/** A derivative one process is making on request until `expires_at` (PDF pages past the tenth). */
export interface DerivativeClaimTable {
  asset_id: number;
  kind: string;
  page: number;
  holder: string;
  expires_at: number;
}

/** A file made from an asset, under DATA_DIR/derivatives; `sha256` is the source content it was made from. */
export interface DerivativeTable {
  asset_id: number;
  kind: string;
  page: Generated<number>;
  sha256: string;
  path: string;
  mime: string;
  width: number | null;
  height: number | null;
  bytes: number;
  /** For thumbnails: a ThumbHash (base64) that clients draw while the image loads. */
  placeholder: string | null;
  created_at: number;
}

/** An asset's visual signature (alike/signature.ts), made with its preview from the same pixels. */
export interface AssetSignatureTable {
  asset_id: number;
  /** The content it was made from. */
  sha256: string;
  /** 64-bit perceptual hash, 16 hexadecimal digits. */
  phash: string;
  /** `[[L,a,b,share],…]` in OKLab, largest share first. */
  colours: string;
  /** Width over height of the picture. */
  aspect: number;
  /** Part hashes (alike/signature.ts PART_WINDOWS), 16 hexadecimal digits each, concatenated; null before version 2. */
  parts: string | null;
  version: number;
  created_at: number;
}

/** Counts by key (user/login-throttle.repository.ts): failed logins, share-link passwords, per-client limits. */
export interface LoginAttemptTable {
  name: string;
  failures: number;
  blocked_until: number | null;
  updated_at: number;
  /** For a pair (account or link, client address): the account's or link's own key. */
  subject: string | null;
}

/** `id` is the SHA-256 (hex) of the token sent in the reset mail. */
export interface PasswordResetTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  /** 'invitation': the link of a new account's invitation mail (`login.invitationHours`). */
  purpose: Generated<'reset' | 'invitation'>;
}

/** A one-time single sign-on code: `id` and `binding` are SHA-256 (hex) of the code and the browser's cookie. */
export interface SsoCodeTable {
  id: string;
  user_id: number;
  binding: string;
  expires_at: number;
}

/** A SAML request we sent: `binding` is the SHA-256 (hex) of the starting browser's cookie. */
export interface SamlRequestTable {
  id: string;
  provider: string;
  binding: string;
  expires_at: number;
}

/** A consumed SAML assertion (`<provider>:<assertion id>`), kept until it would have expired. */
export interface SamlAssertionTable {
  id: string;
  expires_at: number;
}

/** One conversion download at a time per user (`owner`: user id, or session for guests). */
export interface DownloadLockTable {
  owner: string;
  expires_at: number;
}

/**
 * A file made for a conversion set from content `sha256`; `cset_key` changes when the set's
 * definition does. While `status` is 'running' the process that claimed it works on it until
 * `claimed_until`; after that any process may take it over.
 */
export interface ConversionTable {
  sha256: string;
  cset_key: string;
  status: 'running' | 'done';
  path: string | null;
  mime: string | null;
  bytes: number | null;
  crc32: number | null;
  width: number | null;
  height: number | null;
  claimed_until: number;
  created_at: number;
  /** When the file was last served, touched at most hourly (the cache is trimmed oldest first). */
  last_used: number;
}

/** CRC-32 of an original file by content, so a zip's bytes are known before its first byte. */
export interface FileChecksumTable {
  sha256: string;
  bytes: number;
  crc32: number;
}

/**
 * One delivered file or zip: who (a user, or a guest; `share_id` when it came through a share link),
 * the set and the assets (`asset_ids`, comma-separated). `counted_at` is set once the download was
 * folded into the assets' `obj_dload_cnt`.
 */
export interface DownloadTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string | null;
  share_id: number | null;
  cset_id: number;
  kind: 'single' | 'zip';
  asset_ids: string;
  asset_count: number;
  created_at: number;
  counted_at: number | null;
}

/**
 * A download logged for a signed URL and its caller (`key`, a keyed hash of both), until the URL
 * expires (`expires_at`, ms): the same URL fetched again by the same caller is not logged again.
 */
export interface DownloadOnceTable {
  key: string;
  expires_at: number;
}

/**
 * The asset ids of a zip (comma-joined, in the zip's order) under their reference `ref` (the
 * base64url SHA-256 of that text), kept until the last URL naming it expires (`expires_at`, ms).
 */
export interface ZipListTable {
  ref: string;
  ids: string;
  expires_at: number;
}

/** One bookmarked asset of a user; `position` keeps the order the list was saved in. */
export interface BookmarkTable {
  user_id: number;
  asset_id: number;
  position: number;
}

/** `token_hash` is the SHA-256 (hex) of the link's token; `download_sets` a JSON array of set ids. */
export interface ShareLinkTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  title: string;
  password_hash: string | null;
  download_sets: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  views: Generated<number>;
  downloads: Generated<number>;
}

export interface ShareLinkAssetTable {
  share_id: number;
  asset_id: number;
  position: number;
}

/**
 * The edit overlay (decision 0250): a field of an asset an editor changed. `field` is an index
 * field, `created`, `access_groups` or `collections`; `imported` the file's values at the last import
 * (JSON of values per language), which an admin's reset brings back.
 */
export interface AssetEditTable {
  asset_id: number;
  field: string;
  imported: string;
  edited_by: string | null;
  edited_at: number;
}

/** One entry of the edit history: a change of one or many assets, made and undone as one. */
export interface EditBatchTable {
  id: Generated<number>;
  kind: 'upload' | 'edit' | 'bin' | 'restore' | 'undo' | 'reset' | 'remove';
  account_id: number | null;
  account_name: string | null;
  at: number;
  assets: number;
  /** JSON array of the fields it changed. */
  fields: string;
  undo_of: number | null;
  undone_by: number | null;
}

/** A field of an asset a batch changed: values per language before and after (JSON; null: none). */
export interface EditChangeTable {
  batch_id: number;
  asset_id: number;
  field: string;
  before: string | null;
  after: string | null;
}

/**
 * An upload an editor started (tus, upload/files): whose it is, its announced size (counted against
 * the editor's daily limit while `open` or `done`), and the asset it became. `expired`: left
 * unfinished past `editing.uploadExpiryHours`, its parts removed by the purge.
 */
export interface UploadTable {
  id: string;
  account: number;
  bytes: number;
  created_at: number;
  state: 'open' | 'done' | 'failed' | 'cancelled' | 'expired';
  asset_id: number | null;
  filename: string;
}

/** One counted thing of the statistics (insights/): no address, no account (docs/security.md "Statistics"). */
export interface InsightEventTable {
  at: number;
  /** The UTC day of `at`, YYYY-MM-DD. */
  day: string;
  kind: string;
  audience: 'guest' | 'account';
  key: string;
  /** The asset of a view or download (its collections are counted with it). */
  asset_id: number | null;
  n: number;
  /** A search's number of results. */
  results: number | null;
}

/** The statistics' counts per day (kept after the events are gone); key '' holds a kind's day total. */
export interface InsightDailyTable {
  day: string;
  kind: string;
  audience: 'guest' | 'account';
  key: string;
  count: number;
}

/** The daily counts summed per month (YYYY-MM), for periods of many months. */
export interface InsightMonthlyTable {
  month: string;
  kind: string;
  audience: 'guest' | 'account';
  key: string;
  count: number;
}

/** One row (id 1): the last day counted into the daily counts, and the last day the spans follow. */
export interface InsightStateTable {
  id: number;
  counted_through: string | null;
  spans_through: string | null;
}

/** Per preset period (`span` days), the counts of each key over its days before today; audience 'all' is both. */
export interface InsightSpanTable {
  span: number;
  kind: string;
  audience: 'guest' | 'account' | 'all';
  key: string;
  count: number;
}
