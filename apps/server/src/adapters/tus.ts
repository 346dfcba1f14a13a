import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { FileStore } from '@tus/file-store';
import { Metadata, Server, type DataStore } from '@tus/server';
import type { S3Settings } from '../settings.ts';
import { S3Bucket } from './s3-store.ts';

/** An upload as the tus server knows it: its id (in the URL), its whole size and its metadata. */
export interface TusUpload {
  id: string;
  size: number;
  metadata: Record<string, string | null>;
}

/**
 * What the caller of `handle` is told, with the context it passed. A creation is checked by the
 * caller before it calls `handle` (it also names the new upload's id).
 */
export interface TusHooks<C> {
  /** An upload's last byte arrived: answers headers for the client, or throws to answer an error instead. */
  finish(context: C, upload: TusUpload): Promise<Record<string, string>>;
}

/** Where the parts of uploads under way are kept. */
export type TusPartsStore =
  { kind: 'folder'; directory: string } | { kind: 's3'; settings: S3Settings; prefix: string };

/** A tus answer, to be sent by the web framework. */
export interface TusAnswer {
  status: number;
  headers: Record<string, string>;
  body: Readable | null;
}

/** Upload ids in URLs: 32 hex digits, nothing that could name another file. */
const ID = /^[0-9a-f]{32}$/;

/**
 * The tus protocol (resumable uploads, https://tus.io/protocols/resumable-upload) over
 * @tus/server, with the parts of uploads under way in a folder of their own (@tus/file-store) or in
 * the media bucket under a prefix of their own (@tus/s3-store: any process can take the next PATCH).
 * Ids are made by the caller (`handle`'s `id` for a creation), so the caller can record an upload
 * before its first byte. A hook's error is rethrown by `handle` as it was thrown.
 */
export class TusUploads<C> {
  private made: Promise<Server> | undefined;
  private readonly contexts = new WeakMap<Request, { context: C; id?: string; failure?: unknown }>();
  private readonly bucket: S3Bucket | undefined;

  constructor(
    private readonly options: {
      /** The URL path of the creation endpoint; an upload's URL is it, a slash and its id. */
      path: string;
      store: TusPartsStore;
      /** The largest upload, in bytes. */
      maxBytes: number;
      /** Headers the browser may read from the answers. */
      exposedHeaders: string[];
      hooks: TusHooks<C>;
    },
  ) {
    this.bucket = options.store.kind === 's3' ? new S3Bucket(options.store.settings) : undefined;
  }

  /**
   * The tus server, made on the first request: a process that takes no upload neither makes the
   * parts folder nor loads the AWS SDK (which @tus/s3-store imports).
   */
  private server(): Promise<Server> {
    this.made ??= this.make().catch((err: unknown) => {
      this.made = undefined;
      throw err;
    });
    return this.made;
  }

  private async make(): Promise<Server> {
    const { options } = this;
    const store = options.store;
    let datastore: DataStore;
    if (store.kind === 'folder') {
      await mkdir(store.directory, { recursive: true });
      datastore = new FileStore({ directory: store.directory });
    } else {
      const { S3Store: TusS3Store } = await import('@tus/s3-store');
      datastore = new TusS3Store({
        s3ClientConfig: {
          bucket: store.settings.bucket,
          region: store.settings.region,
          forcePathStyle: store.settings.forcePathStyle,
          ...(store.settings.endpoint ? { endpoint: store.settings.endpoint } : {}),
          ...(store.settings.credentials ? { credentials: store.settings.credentials } : {}),
          // As the media store's own client (adapters/s3-store.ts): not every S3 service reads trailing checksums.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        },
        useTags: false,
      });
    }
    const prefix = this.partsPrefix();
    const entry = (req: Request) => {
      const known = this.contexts.get(req);
      if (!known) throw new Error('a tus request that did not come through handle()');
      return known;
    };
    const hook =
      <A extends unknown[], T>(run: (context: C, ...args: A) => Promise<T>) =>
      async (req: Request, ...args: A): Promise<T> => {
        const known = entry(req);
        try {
          return await run(known.context, ...args);
        } catch (err) {
          // tus answers what it was thrown; `handle` throws the hook's own error instead.
          known.failure = err;
          throw Object.assign(new Error('refused by a hook'), { status_code: 500, body: 'refused\n' });
        }
      };
    const plain = (upload: { id: string; size?: number | undefined; metadata?: Record<string, string | null> }) => ({
      id: upload.id.slice(prefix.length),
      size: upload.size ?? 0,
      metadata: upload.metadata ?? {},
    });
    return new Server({
      path: options.path,
      datastore,
      maxSize: options.maxBytes,
      relativeLocation: true,
      exposedHeaders: options.exposedHeaders,
      // Same origin only: the portal's pages upload, no other site.
      allowedOrigins: [],
      disableTerminationForFinishedUploads: true,
      namingFunction: (req) => {
        const id = entry(req).id;
        if (!id || !ID.test(id)) throw new Error('an upload was created without its id');
        return `${prefix}${id}`;
      },
      generateUrl: (_req, { path: base, id }) => `${base}/${id.slice(prefix.length)}`,
      getFileIdFromRequest: (_req, lastPath) => (lastPath && ID.test(lastPath) ? `${prefix}${lastPath}` : undefined),
      onUploadFinish: hook(
        async (context, upload: { id: string; size?: number; metadata?: Record<string, string | null> }) => ({
          headers: await options.hooks.finish(context, plain(upload)),
        }),
      ),
    });
  }

  /** The key prefix of parts in the bucket ('' in the folder, which holds nothing else). */
  private partsPrefix(): string {
    const store = this.options.store;
    return store.kind === 's3' ? `${store.settings.prefix}${store.prefix}` : '';
  }

  /**
   * Answers one tus request. `url` is the path as routed (a creation's, or an upload's with its
   * id); `id` names the upload a creation makes.
   */
  async handle(raw: IncomingMessage, url: string, context: C, id?: string): Promise<TusAnswer> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(raw.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const hasBody = raw.method === 'PATCH' || (raw.method === 'POST' && headers.has('content-type'));
    const request = new Request(new URL(url, 'http://portal.invalid'), {
      method: raw.method ?? 'GET',
      headers,
      ...(hasBody ? { body: Readable.toWeb(raw), duplex: 'half' } : {}),
    } as RequestInit);
    const entry: { context: C; id?: string; failure?: unknown } = { context, ...(id ? { id } : {}) };
    this.contexts.set(request, entry);
    const response = await (await this.server()).handleWeb(request);
    if (entry.failure !== undefined) throw entry.failure as Error;
    const answer: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answer[name] = value;
    });
    return {
      status: response.status,
      headers: answer,
      body: response.body ? Readable.fromWeb(response.body as WebStream) : null,
    };
  }

  /**
   * Moves a finished upload's file to where originals are kept and drops what is left of its
   * parts: in the folder store a rename to `target` (a local path), in the object store a copy to
   * the object `target` of the bucket.
   */
  async place(id: string, target: string): Promise<void> {
    const store = this.options.store;
    if (store.kind === 'folder') {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(path.join(store.directory, id), target);
      await rm(path.join(store.directory, `${id}.json`), { force: true });
      return;
    }
    const { client, sdk } = await this.bucketConnection();
    const source = `${this.partsPrefix()}${id}`;
    await client.send(
      new sdk.CopyObjectCommand({
        Bucket: store.settings.bucket,
        Key: target,
        CopySource: encodeURI(`${store.settings.bucket}/${source}`),
      }),
    );
    await this.remove(id);
  }

  /** Removes an upload's parts (and a finished upload's file), wherever they are; nothing there is no error. */
  async remove(id: string): Promise<void> {
    const store = this.options.store;
    if (store.kind === 'folder') {
      await rm(path.join(store.directory, id), { force: true });
      await rm(path.join(store.directory, `${id}.json`), { force: true });
      return;
    }
    const { client, sdk } = await this.bucketConnection();
    const key = `${this.partsPrefix()}${id}`;
    await (await this.server()).datastore.remove(key).catch(() => undefined);
    await client.send(
      new sdk.DeleteObjectsCommand({
        Bucket: store.settings.bucket,
        Delete: { Objects: [{ Key: key }, { Key: `${key}.info` }, { Key: `${key}.part` }], Quiet: true },
      }),
    );
  }

  /** Removes a placed file (`target` as given to `place`). */
  async unplace(target: string): Promise<void> {
    const store = this.options.store;
    if (store.kind === 'folder') {
      await rm(path.dirname(target), { recursive: true, force: true });
      return;
    }
    const { client, sdk } = await this.bucketConnection();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: store.settings.bucket, Key: target }));
  }

  private bucketConnection() {
    if (!this.bucket) throw new Error('the folder store has no bucket');
    return this.bucket.connect();
  }
}

/** The pairs of an `Upload-Metadata` header; undefined when it is malformed. */
export function parseUploadMetadata(header: string | undefined): Record<string, string | null> | undefined {
  try {
    return Metadata.parse(header);
  } catch {
    return undefined;
  }
}
