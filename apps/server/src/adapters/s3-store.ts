import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as Sdk from '@aws-sdk/client-s3';
import type * as Storage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../settings.ts';
import {
  isSafeKey,
  type ByteRange,
  type MediaStore,
  type ScratchPaths,
  type StoredFileInfo,
  type WalkedFile,
} from './media-store.ts';

/** Parts of a multipart upload; files up to this size go up in one PUT. */
const PART_BYTES = 8 * 1024 * 1024;

interface Connection {
  client: Sdk.S3Client;
  /** The client presigned URLs are made with: one naming S3_PRESIGN_ENDPOINT, or `client`. */
  presigner: Sdk.S3Client;
  sdk: typeof Sdk;
  Upload: typeof Storage.Upload;
  getSignedUrl: typeof Presigner.getSignedUrl;
}

/**
 * A bucket and the one client its stores share. The SDK is loaded when the bucket is first used
 * (about 0.3 s), so commands and servers on the folder store never load it.
 */
export class S3Bucket {
  private connection: Promise<Connection> | undefined;
  /**
   * Listings of folders of the bucket by their prefix, reused for `listCacheSeconds`: the uploaded
   * files are listed for every page the portal serves, and a listing is a billed, slow request.
   */
  private readonly listings = new Map<string, { at: number; files: Promise<WalkedFile[]> }>();

  constructor(readonly settings: S3Settings) {}

  connect(): Promise<Connection> {
    this.connection ??= (async () => {
      const [sdk, storage, presigner] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('@aws-sdk/lib-storage'),
        import('@aws-sdk/s3-request-presigner'),
      ]);
      const s = this.settings;
      const clientAt = (endpoint: string | undefined) =>
        new sdk.S3Client({
          region: s.region,
          forcePathStyle: s.forcePathStyle,
          ...(endpoint ? { endpoint } : {}),
          ...(s.credentials ? { credentials: s.credentials } : {}),
          // Checksums only where S3 requires them: services other than AWS's do not all read the
          // trailing checksums the SDK sends by default.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        });
      const client = clientAt(s.endpoint);
      // Signing needs no request: a second client only names another address in the URLs it signs.
      const presignClient = s.presignEndpoint ? clientAt(s.presignEndpoint) : client;
      return { client, presigner: presignClient, sdk, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
    })();
    return this.connection;
  }

  /** The listing of `prefix`, reused while it is younger than `listCacheSeconds` and nothing changed under it here. */
  listing(prefix: string, load: () => Promise<WalkedFile[]>): Promise<WalkedFile[]> {
    const seconds = this.settings.listCacheSeconds ?? 0;
    if (seconds <= 0) return load();
    const now = Date.now();
    const kept = this.listings.get(prefix);
    if (kept && now - kept.at < seconds * 1000) return kept.files;
    const entry = { at: now, files: load() };
    this.listings.set(prefix, entry);
    entry.files.catch(() => {
      if (this.listings.get(prefix) === entry) this.listings.delete(prefix);
    });
    return entry.files;
  }

  /**
   * This process wrote or removed `object`: listings that may show it are made again (one under way
   * is dropped too, as it may have been read before the change).
   */
  changed(object: string): void {
    for (const prefix of this.listings.keys()) if (object.startsWith(prefix)) this.listings.delete(prefix);
  }

  /** The store of the keys under `prefix` (after the bucket's own prefix). */
  store(prefix: string): S3Store {
    return new S3Store(this, this.settings.prefix + prefix);
  }
}

const notFound = (err: unknown, sdk: typeof Sdk) =>
  err instanceof sdk.S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey');

/**
 * The media store on an S3-compatible object store: every key is an object under `prefix` in one
 * bucket. A write makes its files in a local scratch folder and uploads each (large ones in parts
 * from a file stream, never whole in memory); an object appears only when its upload completes (a
 * PUT, or the completion of a multipart upload, is atomic in S3), and a failed make or upload leaves
 * no object (multipart uploads are aborted, objects of the same write already up are removed).
 */
export class S3Store implements MediaStore {
  private readonly bucket: string;

  constructor(
    private readonly connection: S3Bucket,
    private readonly prefix: string,
  ) {
    this.bucket = connection.settings.bucket;
  }

  private object(key: string): string {
    if (!isSafeKey(key)) throw new Error(`media key outside the store: ${key}`);
    return this.prefix + key.split(path.sep).join('/');
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async stat(key: string): Promise<StoredFileInfo | undefined> {
    const object = this.object(key);
    const { client, sdk } = await this.connection.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: object }));
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (notFound(err, sdk)) return undefined;
      throw err;
    }
  }

  async open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }> {
    const object = this.object(key);
    const { client, sdk } = await this.connection.connect();
    const got = await client.send(
      new sdk.GetObjectCommand({
        Bucket: this.bucket,
        Key: object,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    if (!(got.Body instanceof Readable)) throw new Error(`the object store sent no stream for ${key}`);
    // A ranged answer names the whole size after the slash of its Content-Range.
    const whole = /\/(\d+)$/.exec(got.ContentRange ?? '')?.[1];
    return { stream: got.Body, size: whole === undefined ? (got.ContentLength ?? 0) : Number(whole) };
  }

  async withLocalCopy<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-copy-'));
    try {
      // The name keeps the key's extension: tools pick the format from it.
      const file = path.join(dir, path.basename(key));
      const { stream } = await this.open(key);
      await pipeline(stream, createWriteStream(file));
      return await use(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async write<const K extends readonly string[], T>(
    keys: K,
    make: (scratch: ScratchPaths<K>) => Promise<T>,
  ): Promise<T> {
    const objects = keys.map((k) => this.object(k));
    const { client, sdk } = await this.connection.connect();
    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-write-'));
    const scratch = keys.map((k, i) => path.join(dir, `${i}-${path.basename(k)}`));
    const uploaded: string[] = [];
    try {
      const made = await make(scratch as ScratchPaths<K>);
      for (let i = 0; i < objects.length; i++) {
        await this.upload(objects[i] ?? '', scratch[i] ?? '');
        uploaded.push(objects[i] ?? '');
        this.connection.changed(objects[i] ?? '');
      }
      return made;
    } catch (err) {
      // The write's files appear together or not at all.
      await Promise.all(
        uploaded.map((o) =>
          client
            .send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: o }))
            .catch(() => undefined)
            .finally(() => this.connection.changed(o)),
        ),
      );
      throw err;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async upload(object: string, file: string): Promise<void> {
    const { client, Upload } = await this.connection.connect();
    const body = createReadStream(file);
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key: object, Body: body },
      partSize: PART_BYTES,
      queueSize: 2,
      // A failed multipart upload is aborted, so its parts neither show nor stay billed.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } finally {
      body.destroy();
    }
  }

  async presign(key: string, seconds: number, answer: { type: string; cacheControl: string }): Promise<string> {
    const object = this.object(key);
    const { presigner, sdk, getSignedUrl } = await this.connection.connect();
    // Signed as of the start of the current half of `seconds`: the same URL for everyone in that
    // time (browsers and CDNs cache it), valid for at least half of `seconds` from now.
    const window = Math.max(1, Math.floor(seconds / 2)) * 1000;
    const signingDate = new Date(Math.floor(Date.now() / window) * window);
    const command = new sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: object,
      ResponseContentType: answer.type,
      ResponseCacheControl: answer.cacheControl,
    });
    return getSignedUrl(presigner, command, { expiresIn: seconds, signingDate });
  }

  async remove(key: string): Promise<void> {
    const object = this.object(key);
    const { client, sdk } = await this.connection.connect();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: object }));
    } finally {
      this.connection.changed(object);
    }
  }

  /** Reused for a few seconds (S3_LIST_CACHE_SECONDS): asked for on every page of the portal. */
  async list(folder: string): Promise<string[]> {
    const prefix = folder === '' ? this.prefix : `${this.object(folder)}/`;
    return (await this.connection.listing(prefix, () => this.listed(folder, '/'))).map((f) => f.key);
  }

  async walk(folder: string): Promise<WalkedFile[]> {
    const found = await this.listed(folder, undefined);
    // Keys ending in '/' are the folder markers some tools make, no files.
    return found
      .filter((f) => f.key !== '' && !f.key.endsWith('/'))
      .map((f) => ({ ...f, key: folder === '' ? f.key : `${folder.split(path.sep).join('/')}/${f.key}` }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The objects under a folder of keys, by key relative to it; with a delimiter only those directly in it. */
  private async listed(folder: string, delimiter: '/' | undefined): Promise<WalkedFile[]> {
    const prefix = folder === '' ? this.prefix : `${this.object(folder)}/`;
    const { client, sdk } = await this.connection.connect();
    const found: WalkedFile[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          Delimiter: delimiter,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key)
          found.push({ key: o.Key.slice(prefix.length), size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }
}

/**
 * What an operator should read when the object store refuses or cannot be reached: a missing
 * bucket, refused credentials, no credentials at all, an address that does not answer. Undefined
 * for other errors.
 */
export function objectStoreProblem(err: unknown, bucket: string): string | undefined {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? '';
  if (name === 'NoSuchBucket' || (name === 'NotFound' && status === 404))
    return `The bucket ${bucket} does not exist (or S3_ENDPOINT names another service).`;
  if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden'].includes(name) || status === 403)
    return `The object store refused access to the bucket ${bucket}: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (${name || status}).`;
  if (name === 'CredentialsProviderError')
    return (
      "No credentials for the object store: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or the AWS SDK's " +
      'own: AWS_ACCESS_KEY_ID, AWS_PROFILE, an instance role), and S3_ENDPOINT for a service other than AWS.'
    );
  const code = e.code ?? (e as { cause?: { code?: string } }).cause?.code;
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].includes(code))
    return `The object store cannot be reached (${code}): check S3_ENDPOINT and S3_REGION.`;
  return undefined;
}
