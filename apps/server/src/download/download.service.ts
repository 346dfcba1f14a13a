import { createHash } from 'node:crypto';
import path from 'node:path';
import { acceptedLanguages } from '@vitrine/contract/formats';
import { portalLink, readMediaUrl, readZipIds, ZIP_REF_PATTERN, type MediaFile } from '@vitrine/contract/paths';
import type { ConvertSet } from '@vitrine/contract/session';
import type { CallAnswer } from '@vitrine/contract/call';
import { modelFormats, type previewCall, type videoCall } from '@vitrine/contract/download';
import { toWebVtt } from '../catalogue/caption-file.ts';
import type { AccessService } from '../access/access.service.ts';
import { judgedAsGuest } from '../access/field-audience.ts';
import { DeliveryLog, deliveryKey } from './delivery-log.ts';
import type { Mailer } from '../adapters/mail.ts';
import { planZip, type ZipEntry, type ZipPlan } from '../adapters/zip.ts';
import type { ConfigService } from '../config/config.service.ts';
import { forbidden, notFound, rateLimitReached, tooLongForGuests, validation } from '../http/errors.ts';
import type { FileBody } from '../http/send-file.ts';
import { anonymous, requireAssetUser, type Auth } from '../auth/caller.ts';
import { conversionSetTitle, type ConversionSet, type Settings } from '../settings.ts';
import { outputOf, type ConversionCache, type ConversionCaller, type DownloadFile } from './conversion-cache.ts';
import { downloadName, uniqueNames } from './download-names.ts';
import { readZipListText, zipListRef, zipListText } from './zip-list.ts';
import { assetIdOf, downloaderOf, isAssetId } from './download-ids.ts';
import type { Delivery, DownloadRepository, DownloadSource } from './download.repository.ts';
import type { ClientRateLimits } from '../user/rate-limits.ts';

/** Who asks, and in which language set titles are wanted. */
export interface DownloadCaller {
  auth: Auth;
  acceptLanguage: string | undefined;
}

export interface SignedFile {
  body: FileBody;
  mime: string;
  etag: string;
  filename: string;
  /** What to log once the file was delivered; undefined for a URL that is no download (a player's). */
  delivery?: Delivery;
}

export interface SignedZip {
  plan: ZipPlan;
  etag: string;
  filename: string;
  delivery?: Delivery;
}

/** The query of a signed download or zip URL. */
interface SignedQuery {
  exp?: string;
  sig?: string;
  share?: string;
  /** Who the URL was handed to: `u<user id>`, or `guest`. */
  by?: string;
  /** The address the request came from: tells guests sharing one URL apart (`deliveryKey`). */
  client?: string;
}

export type VideoAnswer = CallAnswer<typeof videoCall>;
type PreviewAnswer = CallAnswer<typeof previewCall>;

/**
 * A caption track's label: its language's name in the caller's language ("English", "Englisch");
 * '' for a track that names no language, which the player calls by the portal's text for captions
 * (the translations, as an admin may have edited them).
 */
export function captionLabel(lang: string, languages: readonly string[]): string {
  if (!lang) return '';
  return new Intl.DisplayNames([...languages], { type: 'language', fallback: 'code' }).of(lang) ?? lang;
}

/** "10 minutes", "1 minute", "2 GB", "0.5 GB". */
function amount(n: number, unit: 'minute' | 'GB'): string {
  return unit === 'minute' && n !== 1 ? `${n} minutes` : `${n} ${unit}`;
}

/** Downloads folded into the assets' counts per transaction. */
const FOLD_BATCH = 1000;

const LOCK_LEASE_MS = 15 * 60_000;

function languagesOf(caller: DownloadCaller): string[] {
  return [...acceptedLanguages(caller.acceptLanguage), ...(caller.auth.locale ? [caller.auth.locale] : []), 'en', 'de'];
}

/** A logged delivery as the statistics count it: whose (guest or account, never who), which set and assets. */
export interface DownloadEvent {
  kind: 'download';
  audience: 'guest' | 'account';
  csetId: number;
  assetIds: readonly number[];
  zip: boolean;
}

/**
 * Previews, conversion sets, single and zip downloads, video and the order process (portal-spec §4
 * "Download flow", §7). Access comes from AccessService: an asset the caller may not see is 404,
 * one it may see but not download 403. Conversions run under a per-user lock (one at a time, 429
 * `rate_limit_reached`) before the signed URL is answered, so the URL serves a finished file; the
 * conversion cache runs them in the work budget's pool (429 `busy` when it is full), which is what
 * bounds guests, whose sessions cost nothing. A download is logged when its file or zip was
 * delivered (the URL names the downloader under its signature), not when the URL is handed out, and
 * a job folds the log into the assets' counts.
 */
export class DownloadService {
  /** Delivered downloads, logged in batches. */
  private readonly deliveries: DeliveryLog;

  constructor(
    private readonly access: AccessService,
    private readonly repository: DownloadRepository,
    private readonly cache: ConversionCache,
    private readonly settings: Settings,
    private readonly config: ConfigService,
    private readonly mailer: Mailer,
    private readonly limits: Pick<ClientRateLimits, 'take'>,
    /** Statistics (insights/, wired in services.ts): each logged delivery, by set; a zip counts its files and itself. */
    insights?: { record(event: DownloadEvent, at: number): void },
  ) {
    this.deliveries = new DeliveryLog(repository, undefined, undefined, (logged) => {
      for (const { delivery, at } of logged) {
        insights?.record(
          {
            kind: 'download',
            audience: delivery.userId === null ? 'guest' : 'account',
            csetId: delivery.csetId,
            assetIds: delivery.assetIds,
            zip: delivery.kind === 'zip',
          },
          at,
        );
      }
    });
  }

  private set(csetId: number): ConversionSet | undefined {
    if (csetId === 0) return undefined;
    const set = this.settings.file.conversionSets.find((s) => s.id === csetId);
    if (!set) {
      throw validation(`There is no conversion set ${csetId}.`, [{ path: 'csetid', message: 'unknown set' }]);
    }
    return set;
  }

  async convertSets(caller: DownloadCaller, assetId: string): Promise<{ convert_sets: ConvertSet[] }> {
    requireAssetUser(caller.auth);
    const ids = await this.access.setIdsFor(caller.auth, assetIdOf(assetId));
    const langs = languagesOf(caller);
    return {
      convert_sets: ids.map((id) => ({ id, title: conversionSetTitle(this.settings.file, id, langs) })),
    };
  }

  info(auth: Auth): { max_assets: number } {
    requireAssetUser(auth);
    return { max_assets: this.settings.file.download.maxAssets };
  }

  /** The preview of an asset (or a page of a document); without any set to download it in, no url. */
  async preview(auth: Auth, input: { id: string; page: number }): Promise<PreviewAnswer> {
    requireAssetUser(auth);
    const id = assetIdOf(input.id);
    const sets = await this.access.setIdsFor(auth, id);
    const [src] = await this.repository.sources([id]);
    if (!src) throw notFound(`The asset ${id}`);
    const pages = src.asset_group === 'document' ? await this.repository.pageCount(id) : null;
    const answer: PreviewAnswer = { asset_groups: [src.asset_group] };
    if (pages) answer.page_count = pages;
    if (sets.length === 0) return answer;
    if (pages !== null && input.page > pages) throw notFound(`Page ${input.page}`);
    answer.url = this.access.mediaUrl(auth, { kind: 'preview', id, page: input.page > 0 ? input.page : undefined });
    const format = modelFormats.find((f) => f === src.format);
    if (input.page === 0 && src.asset_group === '3d' && format && sets.includes(0)) {
      // A download URL without a downloader is a viewer's: looking at the model is not counted as a download.
      answer.model = { url: this.access.mediaUrl(auth, { kind: 'download', id, cset: 0 }), format };
    }
    return answer;
  }

  /**
   * The sources and caption tracks of the player: the web MP4 of a video (the AAC preview of a
   * sound) first, then the original where a browser plays it, but only for a caller who may
   * download the original (set 0); captions with signed URLs, labelled in the caller's language.
   */
  async video(caller: DownloadCaller, assetId: string): Promise<VideoAnswer> {
    const { auth } = caller;
    requireAssetUser(auth);
    const id = assetIdOf(assetId);
    const sets = await this.access.setIdsFor(auth, id);
    const [src] = await this.repository.sources([id]);
    if (!src || (src.asset_group !== 'video' && src.asset_group !== 'audio')) throw notFound(`The video ${id}`);
    if (sets.length === 0) throw forbidden('You may not play this asset.');
    const kind = src.asset_group === 'video' ? 'video' : 'audio';
    const facts = await this.repository.playerFacts(id, kind);
    const url = this.access.mediaUrl(auth, { kind, id });
    const sources: VideoAnswer['sources'] = [
      { src: url, type: kind === 'video' ? 'video/mp4' : 'audio/mp4', size: facts.playableBytes ?? 0 },
    ];
    // Without an account the original would come uncleaned through a player's URL (which names no
    // downloader): such callers play the web MP4 only.
    if (kind === 'video' && facts.playsInBrowser && sets.includes(0) && !this.stripsFor(auth)) {
      // A download URL without a downloader is a player's: playing it is not counted as a download.
      const original = this.access.mediaUrl(auth, { kind: 'download', id, cset: 0 });
      sources.push({ src: original, type: src.mime, size: src.file_size });
    }
    const languages = languagesOf(caller);
    const captions = facts.captions.map((c) => ({
      label: captionLabel(c.lang, languages),
      src: this.access.mediaUrl(auth, { kind: 'caption', id, track: c.track }),
      lang: c.lang,
    }));
    return { url, sources, captions };
  }

  /** A caption track behind a signed URL, as WebVTT (a SubRip file is turned into it). */
  async signedCaption(input: { id: string; track: string } & SignedQuery): Promise<{ text: string; etag: string }> {
    await this.access.requireMediaUrl(
      { kind: 'caption', id: input.id, track: input.track },
      { share: input.share },
      input.exp,
      input.sig,
    );
    const id = assetIdOf(input.id);
    const caption = /^[1-9]\d{0,5}$/.test(input.track)
      ? await this.repository.caption(id, Number(input.track))
      : undefined;
    if (!caption) throw notFound('The caption track');
    return { text: toWebVtt(caption.content, caption.format), etag: `"${caption.sha256.slice(0, 16)}-vtt"` };
  }

  /**
   * One conversion at a time per user, across processes (a lock row in the database): per account,
   * else per session, else (a guest without a token) per client address.
   */
  private async underLock<T>(auth: Auth, work: () => Promise<T>): Promise<T> {
    const owner =
      auth.userId !== null
        ? `user:${auth.userId}`
        : auth.sessionId !== null
          ? `session:${auth.sessionId}`
          : `client:${auth.client ?? 'unknown'}`;
    if (!(await this.repository.acquireLock(owner, Date.now(), LOCK_LEASE_MS))) {
      throw rateLimitReached('Only one conversion download at a time: please wait until the running one is ready.');
    }
    try {
      return await work();
    } finally {
      await this.repository.releaseLock(owner);
    }
  }

  /**
   * Makes sure every file exists (converting under the caller's lock when one is missing). `signal`:
   * aborted when the client went away, which stops a conversion no other caller waits for.
   */
  private async prepare(
    auth: Auth,
    sources: DownloadSource[],
    set: ConversionSet | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const caller: ConversionCaller = { forAccount: auth.userId !== null, signal };
    const missing = await this.toConvert(caller, sources, set);
    if (missing.length) {
      await this.underLock(auth, async () => {
        for (const src of missing) await this.cache.file(src, set, caller);
      });
    }
    // Originals need their checksum for zips; cheap once it is stored.
    for (const src of sources) await this.cache.file(src, set, caller);
  }

  /**
   * Whether a caller gets originals cleaned of private tags (download.stripPrivateMetadata): callers
   * without an account, and anyone through a share link, who are judged by the guest groups for
   * fields as well (access/field-audience.ts).
   */
  private stripsFor(auth: Auth): boolean {
    return this.settings.file.download.stripPrivateMetadata && judgedAsGuest(auth);
  }

  /** `stripsFor` of the caller a signed URL was handed to: a guest (`by=guest`) or a share link's visitor. */
  private stripsForUrl(input: SignedQuery): boolean {
    return this.settings.file.download.stripPrivateMetadata && (input.by === 'guest' || input.share !== undefined);
  }

  /** The file of an asset in a set, the original cleaned of private tags when `strip`. */
  private async fileFor(
    src: DownloadSource,
    set: ConversionSet | undefined,
    strip: boolean,
    caller: ConversionCaller,
  ): Promise<DownloadFile> {
    if (set || !strip) return this.cache.file(src, set, caller);
    return this.cache.withoutPrivateTags(src, this.access.hiddenFields(anonymous));
  }

  /** `prepare` for cleaned originals: each is made (under the caller's lock) before its URL is handed out. */
  private async prepareStripped(auth: Auth, sources: DownloadSource[]): Promise<void> {
    const hidden = this.access.hiddenFields(anonymous);
    const missing: DownloadSource[] = [];
    for (const src of sources) if (!(await this.cache.isStrippedReady(src, hidden))) missing.push(src);
    if (missing.length) {
      await this.underLock(auth, async () => {
        for (const src of missing) await this.cache.withoutPrivateTags(src, hidden);
      });
    }
    for (const src of sources) await this.cache.withoutPrivateTags(src, hidden);
  }

  /**
   * The sources whose conversion in `set` is not made yet; refused (403 `too_long`) when a caller
   * without an account asks for one of an original longer or larger than such callers may have
   * converted. A finished conversion is served to anyone: it costs no converter.
   */
  private async toConvert(
    caller: ConversionCaller,
    sources: readonly DownloadSource[],
    set: ConversionSet | undefined,
  ): Promise<DownloadSource[]> {
    const missing: DownloadSource[] = [];
    for (const src of sources) if (!(await this.cache.isReady(src, set))) missing.push(src);
    if (caller.forAccount || !set) return missing;
    const { guestMaxMinutes, guestMaxGB } = this.settings.file.work.conversions;
    for (const src of missing) {
      if (src.duration !== null && src.duration > guestMaxMinutes * 60) {
        throw tooLongForGuests(
          `${src.filename} is longer than ${amount(guestMaxMinutes, 'minute')}: only signed-in users can have ` +
            'video or audio this long converted. Please log in to download it in this format.',
        );
      }
      if (src.file_size > guestMaxGB * 1024 ** 3) {
        throw tooLongForGuests(
          `${src.filename} is larger than ${amount(guestMaxGB, 'GB')}: only signed-in users can have ` +
            'files this large converted. Please log in to download it in this format.',
        );
      }
    }
    return missing;
  }

  async single(auth: Auth, input: { id: string; csetid: number }, signal?: AbortSignal): Promise<{ url: string }> {
    requireAssetUser(auth);
    const id = assetIdOf(input.id);
    const set = this.set(input.csetid);
    await this.access.requireDownloadable(auth, input.csetid, id);
    const sources = await this.repository.sources([id]);
    if (!set && this.stripsFor(auth)) await this.prepareStripped(auth, sources);
    else await this.prepare(auth, sources, set, signal);
    const file: MediaFile = { kind: 'download', id, cset: input.csetid };
    return { url: this.access.mediaUrl(auth, file, { window: 'download', by: downloaderOf(auth) }) };
  }

  async zip(
    auth: Auth,
    input: { csetid: number; id: string[] },
    signal?: AbortSignal,
  ): Promise<{ url?: string; rejected_asset_ids: string[] }> {
    const { zipped, rejected } = await this.zipSelection(auth, input.csetid, input.id, 'id', signal);
    if (zipped.length === 0) return { rejected_asset_ids: rejected };
    // The ids go in the query: a path segment of 500 seven-digit ids would pass the router's limit.
    const file: MediaFile = { kind: 'zip', cset: input.csetid, ids: zipped };
    const url = this.access.mediaUrl(auth, file, { window: 'download', by: downloaderOf(auth) });
    return { url, rejected_asset_ids: rejected };
  }

  /**
   * `zip` for a selection of any length (`POST download/zip`): the URL names the list by its
   * reference, which the database keeps until the URL expires, so that any process reads it back and
   * the URL stays short enough for every proxy.
   */
  async zipList(
    auth: Auth,
    input: { csetid: number; ids: string[] },
    signal?: AbortSignal,
  ): Promise<{ url?: string; rejected_asset_ids: string[] }> {
    const { zipped, rejected } = await this.zipSelection(auth, input.csetid, input.ids, 'ids', signal);
    if (zipped.length === 0) return { rejected_asset_ids: rejected };
    const text = zipListText(zipped);
    const ref = zipListRef(text);
    const file: MediaFile = { kind: 'zipList', cset: input.csetid, ref };
    const url = this.access.mediaUrl(auth, file, { window: 'download', by: downloaderOf(auth) });
    // Kept before the URL is handed out, as long as the URL is valid.
    await this.repository.keepZipList(ref, text, Number(readMediaUrl(url)?.exp) * 1000);
    return { url, rejected_asset_ids: rejected };
  }

  /**
   * The assets of a zip: those the caller may download in the set and whose files are there, made
   * ready (converted under the caller's lock); the others named back (`rejected`). `field` names the
   * list in an error.
   */
  private async zipSelection(
    auth: Auth,
    csetid: number,
    list: readonly string[],
    field: 'id' | 'ids',
    signal: AbortSignal | undefined,
  ): Promise<{ zipped: number[]; rejected: string[] }> {
    requireAssetUser(auth);
    const set = this.set(csetid);
    const max = this.settings.file.download.maxAssets;
    const asked = [...new Set(list)];
    if (asked.length === 0) throw validation('Name at least one asset.', [{ path: field, message: 'required' }]);
    if (max !== -1 && asked.length > max) {
      throw validation(`A zip may hold at most ${max} assets.`, [{ path: field, message: `at most ${max}` }]);
    }
    const numeric = asked.filter(isAssetId).map(Number);
    const allowed = new Set(await this.access.downloadableIds(auth, csetid, numeric));
    const ids = numeric.filter((id) => allowed.has(id));
    const rejected = asked.filter((id) => !allowed.has(Number(id)) || !/^\d+$/.test(id));
    if (ids.length === 0) return { zipped: [], rejected };
    // An asset whose file went away (until the next import marks it gone) is left out like a refused one.
    const { present: sources, missing } = await this.cache.onDisk(await this.repository.sources(ids));
    rejected.push(...missing.map((src) => String(src.id)));
    if (sources.length === 0) return { zipped: [], rejected };
    if (!set && this.stripsFor(auth)) await this.prepareStripped(auth, sources);
    else await this.prepare(auth, sources, set, signal);
    return { zipped: sources.map((src) => src.id), rejected };
  }

  async order(auth: Auth, input: { id: string[]; message: string; client: string }): Promise<{ ok: true }> {
    requireAssetUser(auth);
    const config = await this.config.globalConfig();
    if (!config.global.run_order_process) throw forbidden('The order process is not enabled.');
    const numeric = input.id.filter(isAssetId).map(Number);
    const visible = (await this.access.sharedLink(auth, numeric)).visibleIds;
    if (visible.length === 0) throw notFound('The assets');
    const names = await this.repository.filenames(visible);
    const account = auth.userId !== null ? await this.repository.userEmail(auth.userId) : undefined;
    const who = account?.display_name ?? auth.name ?? 'Guest';
    const text = [
      `${who} orders ${visible.length} asset(s).`,
      `User: ${auth.name ?? '(guest)'}`,
      `E-mail: ${account?.email ?? '(none)'}`,
      '',
      'Message:',
      input.message.trim() || '(none)',
      '',
      'Assets:',
      ...visible.map(
        (id) => `- ${names.get(id) ?? id}: ${portalLink(this.settings.publicUrl, { page: 'asset', id: String(id) })}`,
      ),
      '',
    ].join('\n');
    await this.limits.take('orders', input.client);
    await this.mailer.send({
      to: this.settings.file.download.orderAddress,
      subject: `Order of ${visible.length} asset(s) by ${who}`,
      text,
    });
    return { ok: true };
  }

  /**
   * Checks a signed download or zip URL for `file` and answers whom to log its delivery for: the
   * downloader it was handed to (`by`) and the share link; undefined for a URL handed out for
   * playing, not downloading.
   */
  private async verify(
    file: MediaFile,
    input: SignedQuery,
  ): Promise<Pick<Delivery, 'userId' | 'shareId' | 'once'> | undefined> {
    if (input.by !== undefined && !/^(u[1-9]\d{0,15}|guest)$/.test(input.by)) {
      throw forbidden('This download link is not valid.');
    }
    const check = await this.access.verifyMediaUrl(file, { by: input.by, share: input.share }, input.exp, input.sig);
    if (check === 'invalid') throw forbidden('This download link is not valid.');
    if (check === 'expired') throw forbidden('This download link has expired; start the download again.');
    if (check === 'revoked') throw forbidden('The share link this download came from was revoked or has expired.');
    if (input.by === undefined) return undefined;
    return {
      userId: input.by === 'guest' ? null : Number(input.by.slice(1)),
      shareId: input.share === undefined ? null : Number(input.share),
      once: deliveryKey(
        this.settings.secret,
        { sig: input.sig ?? '', by: input.by, exp: input.exp ?? '' },
        input.client,
      ),
    };
  }

  /**
   * Logs a download that was delivered (the route calls it once the last byte went out), with others
   * delivered about the same time (`DeliveryLog`). Failures are reported to `onError`: the file was
   * sent all the same. `settled` waits for the writes.
   */
  delivered(delivery: Delivery | undefined, onError: (err: unknown) => void): void {
    if (delivery) this.deliveries.add(delivery, onError);
  }

  /** Resolves once every delivered download seen so far is logged (before the database closes). */
  settled(): Promise<void> {
    return this.deliveries.settled();
  }

  /**
   * Folds the delivered downloads not yet counted into the assets' download counts, a batch per
   * transaction, until none are left; answers how many it counted. Any number of processes may run
   * it at once: each download is counted by one of them.
   */
  async foldDownloads(batch = FOLD_BATCH): Promise<number> {
    let total = 0;
    for (;;) {
      const folded = await this.repository.foldDownloads(batch, Date.now());
      total += folded;
      if (folded < batch) return total;
    }
  }

  /** The file behind a signed single-download URL (the signature is the permission). */
  async signedFile(input: { id: string; cset: string } & SignedQuery, signal?: AbortSignal): Promise<SignedFile> {
    const downloader = await this.verify({ kind: 'download', id: input.id, cset: input.cset }, input);
    const id = assetIdOf(input.id);
    const [src] = await this.repository.sources([id]);
    if (!src) throw notFound('The asset');
    const set = this.set(Number(input.cset));
    // A URL handed to an account holder converts as theirs (a conversion evicted since); any other as a guest's.
    const caller: ConversionCaller = { forAccount: (downloader?.userId ?? null) !== null, signal };
    await this.toConvert(caller, [src], set);
    const file = await this.fileFor(src, set, this.stripsForUrl(input), caller);
    // An original is sent as large as it is now; a conversion as it was made.
    const body: FileBody =
      file.key === undefined
        ? await this.cache.originalBody(src)
        : { size: file.bytes, open: (range) => file.open(range) };
    return {
      body,
      mime: file.mime,
      etag: `"${src.sha256.slice(0, 16)}-${input.cset}-${file.crc32.toString(16)}"`,
      filename: downloadName(src, set),
      delivery: downloader && { ...downloader, csetId: Number(input.cset), kind: 'single', assetIds: [id] },
    };
  }

  /** The layout of the zip behind a signed zip URL; the same selection always gives the same bytes. */
  async signedZip(input: { cset: string; ids: string } & SignedQuery, signal?: AbortSignal): Promise<SignedZip> {
    const named = readZipIds(input.ids);
    const downloader = await this.verify({ kind: 'zip', cset: input.cset, ids: named }, input);
    return this.zipOf(named.map(assetIdOf), input, downloader, signal);
  }

  /**
   * The zip behind a signed zip list URL: the signature covers the reference, and the reference is
   * the hash of the list, so neither can be changed behind the other's back.
   */
  async signedZipList(input: { cset: string; ref: string } & SignedQuery, signal?: AbortSignal): Promise<SignedZip> {
    // Not a reference (the old form with the ids in the path among them): no such file.
    if (!ZIP_REF_PATTERN.test(input.ref)) throw notFound('The zip');
    const downloader = await this.verify({ kind: 'zipList', cset: input.cset, ref: input.ref }, input);
    const text = await this.repository.zipList(input.ref);
    if (text === undefined) throw notFound('The zip of this download link');
    if (zipListRef(text) !== input.ref) throw forbidden('This download link is not valid.');
    return this.zipOf(readZipListText(text).map(assetIdOf), input, downloader, signal);
  }

  private async zipOf(
    ids: number[],
    input: { cset: string } & SignedQuery,
    downloader: Awaited<ReturnType<DownloadService['verify']>>,
    signal: AbortSignal | undefined,
  ): Promise<SignedZip> {
    const set = this.set(Number(input.cset));
    const sources = await this.repository.sources(ids);
    if (sources.length === 0) throw notFound('The assets');
    // The assets in the zip: one gone since the URL was handed out is neither sent nor counted.
    const assetIds = sources.map((src) => src.id);
    const delivery: Delivery | undefined = downloader && {
      ...downloader,
      csetId: Number(input.cset),
      kind: 'zip',
      assetIds,
    };
    const caller: ConversionCaller = { forAccount: (downloader?.userId ?? null) !== null, signal };
    await this.toConvert(caller, sources, set);
    const files: DownloadFile[] = [];
    const strip = this.stripsForUrl(input);
    for (const src of sources) files.push(await this.fileFor(src, set, strip, caller));
    const names = uniqueNames(sources.map((src) => downloadName(src, set)));
    const entries: ZipEntry[] = sources.map((src, i) => ({
      name: names[i] ?? `asset-${src.id}`,
      path: files[i]?.path ?? (files[i]?.key === undefined ? src.filename : `a conversion of ${src.filename}`),
      ...(files[i] && !files[i].path ? { open: files[i].open } : {}),
      size: files[i]?.bytes ?? 0,
      crc32: files[i]?.crc32 ?? 0,
      modified: new Date(src.imp_date),
    }));
    const digest = createHash('sha256');
    for (const e of entries) digest.update(`${e.name}\n${e.size}\n${e.crc32}\n${e.modified.getTime()}\n`);
    const suffix = set ? `-${path.basename(outputOf(set)?.ext ?? '')}` : '';
    return {
      plan: planZip(entries),
      etag: `"${digest.digest('hex').slice(0, 32)}"`,
      filename: `assets-${entries.length}${suffix}.zip`,
      delivery,
    };
  }
}
