import type { Auth } from './auth/caller.ts';
import path from 'node:path';
import { AccessRepository } from './access/access.repository.ts';
import { AccessService } from './access/access.service.ts';
import { GroupRights } from './access/group-rights.ts';
import { BookmarkRepository } from './bookmark/bookmark.repository.ts';
import { BookmarkService } from './bookmark/bookmark.service.ts';
import { createMailer, type Mailer } from './adapters/mail.ts';
import { SharedFolderStore, type MediaStore } from './adapters/media-store.ts';
import { S3Bucket } from './adapters/s3-store.ts';
import { endHelpers } from './adapters/process.ts';
import { CatalogueRepository } from './catalogue/catalogue.repository.ts';
import { ImportService } from './catalogue/import.service.ts';
import { ConfigAdminService } from './config/config-admin.service.ts';
import { ConfigRepository } from './config/config.repository.ts';
import { ConfigService } from './config/config.service.ts';
import { INVITATION_MAIL_KEYS, messageAt, RESET_MAIL_KEYS } from './config/reset-mail.ts';
import { openDatabase, type Db } from './db/database.ts';
import { WriteThread } from './db/write-thread.ts';
import { ConversionCache } from './download/conversion-cache.ts';
import { DownloadRepository } from './download/download.repository.ts';
import { trimConversionsJobHandler } from './download/conversion-trim.jobs.ts';
import { eagerConversionsJobHandler } from './download/eager-conversions.jobs.ts';
import { downloadJobHandlers } from './download/download.jobs.ts';
import { DownloadService } from './download/download.service.ts';
import { derivativeJobHandlers } from './derivatives/derivative.jobs.ts';
import { SignatureRepository } from './alike/signature.repository.ts';
import { SignatureBackfill } from './alike/signature.service.ts';
import { DuplicatesService } from './edit/duplicates.service.ts';
import { DerivativeRepository } from './derivatives/derivative.repository.ts';
import { DerivativeService } from './derivatives/derivative.service.ts';
import { ModelRenderer } from './derivatives/model-renderer.ts';
import { derivativeRoot } from './derivatives/storage.ts';
import { logSourceRefusalsTo, Originals } from './derivatives/source-file.ts';
import { EditRepository } from './edit/edit.repository.ts';
import { GroupRepository } from './group/group.repository.ts';
import { GroupService } from './group/group.service.ts';
import { EditService } from './edit/edit.service.ts';
import { XmpSidecars, xmpSidecarJobHandler } from './edit/xmp-sidecar.jobs.ts';
import { InfoRepository } from './info/info.repository.ts';
import { InfoService } from './info/info.service.ts';
import { aggregateInsightsJobHandler } from './insights/insights.jobs.ts';
import { InsightRecorder } from './insights/insights.recorder.ts';
import { InsightsRepository } from './insights/insights.repository.ts';
import { InsightsService } from './insights/insights.service.ts';
import { JobRepository } from './jobs/job.repository.ts';
import { Foreground } from './jobs/foreground.ts';
import { JobWorker, type WorkerOptions } from './jobs/job.worker.ts';
import { WorkBudget, withinBudget } from './jobs/work-budget.ts';
import { WorkSlotRepository } from './jobs/work-slot.repository.ts';
import { MediaService } from './media/media.service.ts';
import { baseContentLanguages, CHANGE_READER_TTL_MS } from '@vitrine/search-engine';
import { createSearchEngine, createTextFeed, SNAPSHOT_FILE } from './search/create-engine.ts';
import { SearchRepository } from './search/search.repository.ts';
import type { EngineTimes } from '@vitrine/search-engine';
import { SearchService } from './search/search.service.ts';
import { AuthService } from './session/auth.service.ts';
import { SessionRepository } from './session/session.repository.ts';
import { SessionService } from './session/session.service.ts';
import { mailSettings, type Settings } from './settings.ts';
import {
  COUNTED_DOWNLOADS_KEPT_MS,
  DONE_JOBS_KEPT_MS,
  FAILED_JOBS_KEPT_MS,
  purgeJobHandler,
  type PurgeTarget,
} from './jobs/purge.jobs.ts';
import { SsoRepository } from './sso/sso.repository.ts';
import { ShareRepository } from './share/share.repository.ts';
import { ShareService } from './share/share.service.ts';
import { SsoService } from './sso/sso.service.ts';
import { LoginThrottleRepository } from './user/login-throttle.repository.ts';
import { ClientRateLimits } from './user/rate-limits.ts';
import { UserRepository } from './user/user.repository.ts';
import { PeopleRepository } from './people/people.repository.ts';
import { PeopleService } from './people/people.service.ts';
import { UserService, userJobHandlers } from './user/user.service.ts';
import { UploadRepository } from './upload/upload.repository.ts';
import { UploadService } from './upload/upload.service.ts';

/** Where services write what an operator should see (pino in the server, a quiet stand-in in commands). */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ServiceOptions {
  log?: Log;
  /** Replaces the mailer of the settings (tests). */
  mailer?: Mailer;
  /** Told how long the parts of each search took in the engine (metrics). */
  onEngineTimes?: (times: EngineTimes) => void;
}

/**
 * The composition root: the one place where every repository and service is built, for the server
 * (app.ts registers one route module per domain over these), the `vitrine` commands and tests.
 * Repositories are made here and handed to the services that use them; nothing else constructs them.
 */
export function buildServices(db: Db, settings: Settings, options: ServiceOptions = {}) {
  const log = options.log ?? quiet;
  // Asset writes feed the full-text index in their own transaction (nothing left to catch up).
  const catalogue = new CatalogueRepository(
    db.kysely,
    createTextFeed(db, settings.file.fields),
    settings.file.conversionSets,
  );
  // A bulk edit's statements run in a thread beside the event loop (db/write-thread.ts, decision 0272).
  const writes =
    settings.database.dialect === 'sqlite' ? new WriteThread(settings.database.file, db.kysely) : undefined;
  if (writes) catalogue.writeInThread(writes);
  // Groups and their rights: the settings file's until the admin area saves them (decision 0260).
  const groupRepository = new GroupRepository(db);
  const rights = new GroupRights(settings.file, groupRepository, (err) =>
    log.warn({ error: err.message }, 'whether the groups changed could not be read; the rights last read apply'),
  );
  const shareRules = () => rights.current().share;
  const repositories = {
    access: new AccessRepository(db, shareRules),
    bookmarks: new BookmarkRepository(db),
    catalogue,
    config: new ConfigRepository(db),
    derivatives: new DerivativeRepository(db.kysely),
    signatures: new SignatureRepository(db.kysely),
    downloads: new DownloadRepository(db, catalogue),
    edits: new EditRepository(db, catalogue),
    groups: groupRepository,
    info: new InfoRepository(db),
    insights: new InsightsRepository(db),
    jobs: new JobRepository(db.kysely),
    loginThrottle: new LoginThrottleRepository(db),
    search: new SearchRepository(db),
    sessions: new SessionRepository(db, { maxAgeMs: settings.file.session.maxDays * 24 * 3600_000 }),
    sso: new SsoRepository(db),
    shares: new ShareRepository(db, shareRules),
    users: new UserRepository(db),
    people: new PeopleRepository(db),
    uploads: new UploadRepository(db.kysely, db.dialect),
    workSlots: new WorkSlotRepository(db.kysely),
  };
  const r = repositories;
  const mailer = options.mailer ?? createMailer(mailSettings(settings), log);
  // One budget per process for expensive work; its shared slots are given back when services close.
  const work = new WorkBudget(r.workSlots, settings.file.work, {
    // A dead process's slots are free when its jobs are (JOB_LEASE_SECONDS), after 30 s at most.
    leaseMs: Math.min(30_000, settings.jobLeaseMs),
    onError: (err) => log.warn({ error: err.message }, 'a work slot could not be renewed or given back'),
  });

  const access = new AccessService(r.access, settings.secret, () => rights.current().access);
  const auth = new AuthService(r.sessions, settings, (shareId) => access.shareGrant(shareId), rights);
  const groupNames = () => rights.current().names();
  const limits = new ClientRateLimits(r.loginThrottle, settings, (err) =>
    log.warn({ error: err.message }, 'searches counted in memory could not be added to the shared count'),
  );
  // Statistics are queued by the services that see them happen and written in batches.
  const recorder = new InsightRecorder(r.insights, {
    enabled: settings.file.insights.enabled,
    onError: (err) =>
      log.warn({ error: (err as Error).message }, 'a batch of statistics could not be written; it is dropped'),
  });
  const sso = new SsoService(settings, r.users, r.sso, log, limits, recorder, groupNames);
  const stores = mediaStores(settings);
  const config = new ConfigService(r.config, stores.uploads, access, work);
  logSourceRefusalsTo(log);
  const originals = new Originals(bucketStores(settings));
  const models = new ModelRenderer(settings.file.models);
  const derivatives = new DerivativeService(r.derivatives, stores.derivatives, models, work, log, originals);
  const linkMailTexts = async (purpose: 'reset' | 'invitation', locale: string) => {
    const lang = locale === 'de' ? 'de' : 'en';
    const set = await config.translations(lang);
    const keys = purpose === 'invitation' ? INVITATION_MAIL_KEYS : RESET_MAIL_KEYS;
    return {
      subject: messageAt(set, keys.subject) ?? keys.subject,
      body: messageAt(set, keys.body) ?? keys.body,
    };
  };
  const users = new UserService(
    r.users,
    r.loginThrottle,
    settings,
    mailer,
    log,
    r.jobs,
    (locale) => linkMailTexts('reset', locale),
    groupNames,
  );
  // Accounts in the admin area, with the groups the one source of rights knows (decision 0260).
  const people = new PeopleService(
    r.people,
    r.users,
    r.loginThrottle,
    settings,
    {
      known: async () => (await rights.refresh()).names(),
      adminGroups: async () => (await rights.refresh()).groups.filter((g) => g.guiAdmin).map((g) => g.name),
    },
    mailer,
    linkMailTexts,
    log,
  );
  // Login attempts count for the block time, reset-mail requests for an hour.
  const attemptWindowMs = Math.max(settings.file.login.blockMinutes * 60_000, 3600_000);
  const purgeTargets: PurgeTarget[] = [
    { what: 'sessions', purge: (now) => r.sessions.purgeExpired(now) },
    { what: 'login attempts', purge: (now) => r.loginThrottle.purge(now, attemptWindowMs) },
    { what: 'reset links', purge: (now) => r.users.purgeResets(now) },
    { what: 'single sign-on', purge: (now) => r.sso.purgeExpired(now) },
    { what: 'jobs', purge: (now) => r.jobs.purgeFinished(now - DONE_JOBS_KEPT_MS, now - FAILED_JOBS_KEPT_MS) },
    { what: 'catalogue changes', purge: (now) => r.search.pruneChanges(now - CHANGE_READER_TTL_MS) },
    { what: 'derivative claims', purge: (now) => r.derivatives.purgeExpiredClaims(now) },
    { what: 'download locks', purge: (now) => r.downloads.purgeExpiredLocks(now) },
    { what: 'zip lists', purge: (now) => r.downloads.purgeExpiredZipLists(now) },
    { what: 'counted downloads', purge: (now) => r.downloads.purgeCountedDownloads(now - COUNTED_DOWNLOADS_KEPT_MS) },
  ];
  const conversions = new ConversionCache(r.downloads, settings.dataDir, work, {
    log,
    store: stores.conversions,
    originals,
  });
  const downloads = new DownloadService(access, r.downloads, conversions, settings, config, mailer, limits, recorder);
  const bookmarks = new BookmarkService(r.bookmarks, access);
  const sessions = new SessionService(auth, r.sessions, r.users, r.loginThrottle, settings, sso, limits, recorder);
  const search = new SearchService(
    createSearchEngine(
      db,
      settings.file.fields,
      {
        snapshotFile: path.join(settings.dataDir, SNAPSHOT_FILE),
        log: (message) => log.info({}, message),
        onTimes: options.onEngineTimes,
      },
      r.search,
    ),
    r.search,
    access,
    config,
    settings,
    bookmarks,
    limits,
    recorder,
  );
  // This process's own edits reach its index as written, without being read again (other processes
  // take those of coded values from the parts kept for them, and read the rest).
  r.catalogue.onCommitted(search);
  const insights = new InsightsService(r.insights, recorder, access, settings, limits);
  const importer = () => new ImportService(r.catalogue, settings, originals);
  // Each upload that became an asset is an entry of the edit history (undone by the bin).
  const recordUpload = async (auth: Auth, assetId: number) => {
    await r.edits.recordUpload(db, { id: auth.userId, name: auth.name }, [assetId]);
  };
  // Uploads being imported come before this process's background jobs (their derivatives follow them).
  const foreground = new Foreground();
  const uploads = new UploadService(r.uploads, r.catalogue, importer, settings, log, recordUpload, rights, foreground);
  const xmpSidecars = new XmpSidecars(r.edits, r.jobs, settings);
  purgeTargets.push({ what: 'unfinished uploads', purge: (now) => uploads.expireUnfinished(now) });
  const edits = new EditService(
    r.edits,
    access,
    settings,
    async () => {
      const { content } = await config.languages();
      return [...new Set([...baseContentLanguages, ...content])].sort();
    },
    (auth) => uploads.usedTodayBytes(auth),
    // The edit is written: a sidecar that could not be asked for is logged, not the edit's failure.
    (written) =>
      xmpSidecars
        .queue(written)
        .catch((err: unknown) =>
          log.warn({ ...written, error: (err as Error).message }, 'XMP sidecars of an edit could not be queued'),
        ),
    rights,
  );
  const jobHandlers = () => [
    // Pictures and web videos of an import share the thumbnail slots of all processes.
    ...withinBudget(work, 'thumbnail', derivativeJobHandlers(derivatives)),
    ...userJobHandlers(users),
    ...downloadJobHandlers(downloads, log),
    trimConversionsJobHandler(conversions, settings.file.conversionCache.maxGB, log),
    eagerConversionsJobHandler(conversions, r.downloads, settings.file.conversionSets, log),
    purgeJobHandler(purgeTargets, log),
    xmpSidecarJobHandler(xmpSidecars),
    aggregateInsightsJobHandler(insights, log),
  ];

  return {
    db,
    settings,
    /** For commands and tests that read or write rows directly (the demo reset, test set-up). */
    repositories,
    /** Where derivatives, conversions and uploaded files are kept. */
    stores,
    access,
    auth,
    sso,
    config,
    configAdmin: new ConfigAdminService(r.config, stores.uploads, settings.file.customPages.imageOrigins),
    search,
    bookmarks,
    edits,
    /** The editors' duplicates report (issue #52). */
    duplicates: new DuplicatesService(r.signatures, access, rights, {
      docs: async (caller, ids) => (await search.assets(caller, ids.join(','))).response.docs,
      collections: async () => r.search.collections(),
      generation: async () => (await r.search.catalogueState()).generation,
    }),
    /** Groups and their rights in the admin area (and `vitrine groups`). */
    groups: new GroupService(r.groups, rights, settings.file),
    /** The groups and rights in force, the settings file's or the admin area's. */
    rights,
    derivatives,
    sessions,
    shares: new ShareService(r.shares, access, auth, r.loginThrottle, settings, sessions, limits, recorder),
    users,
    /** Accounts in the admin area (People): list, invite, change, disable, unblock, remove. */
    people,
    info: new InfoService(r.info, config, search),
    /** Statistics of use: the view beacon, the admin's report, the daily counts. */
    insights,
    media: new MediaService(
      access,
      derivatives,
      settings.mediaStore.kind === 's3' ? settings.mediaStore.presignSeconds : 0,
    ),
    downloads,
    /** The cache of converted downloads (its size, trimming, clearing: `vitrine cache`). */
    conversions,
    /** Slots of expensive work (conversions, page renders, …) of this process and across processes. */
    work,
    /** A new import run (it remembers the collections it made until it ends). */
    importer,
    /** Visual signatures of assets that have pictures but no signature yet (`vitrine import`). */
    signatureBackfill: () => new SignatureBackfill(r.signatures, stores.derivatives, log),
    /** Resumable uploads of editors (tus) and the collections they go into. */
    uploads,
    /** The worker every Vitrine process runs: all job handlers the server knows. */
    jobWorker: (workerOptions: WorkerOptions = {}) =>
      new JobWorker(r.jobs, jobHandlers(), { leaseMs: settings.jobLeaseMs, yieldTo: foreground, ...workerOptions }),
    /** The names of the jobs the worker runs. */
    jobNames: () => jobHandlers().map((h) => h.name),
    /** Starts the write thread (SQLite) before the first edit needs it. */
    warmWrites: async () => writes?.warm(),
    /** Ends the child processes and threads the services started (exiftool, 3D drawing) and closes the database. */
    close: async () => {
      await downloads.settled();
      // After the deliveries: their last batch hands its downloads to the statistics.
      await insights.settled();
      await limits.settle().catch(() => undefined);
      await work
        .close()
        .catch((err: unknown) => log.warn({ err }, 'work slots were not given back; their leases run out'));
      await search
        .close()
        .catch((err: unknown) => log.warn({ err }, 'the search index was not closed cleanly (snapshot or reader)'));
      await endHelpers();
      await models.close();
      await writes?.stop();
      await db.close();
    },
  };
}

export type Services = ReturnType<typeof buildServices>;

/**
 * The media stores of derivatives, conversions, files admins upload and originals editors upload:
 * folders in DATA_DIR, or the same names as prefixes in one bucket of an object store (README
 * "Object storage").
 */
export function mediaStores(
  settings: Pick<Settings, 'dataDir' | 'mediaStore'>,
): Record<'derivatives' | 'conversions' | 'uploads' | 'originals', MediaStore> {
  const store = settings.mediaStore;
  if (store.kind === 'folder') {
    return {
      derivatives: new SharedFolderStore(derivativeRoot(settings.dataDir)),
      conversions: new SharedFolderStore(path.join(settings.dataDir, 'conversions')),
      uploads: new SharedFolderStore(path.join(settings.dataDir, 'config-files')),
      // Read by backups only; the upload service places them (adapters/tus.ts `place`).
      originals: new SharedFolderStore(path.join(settings.dataDir, 'uploads')),
    };
  }
  const bucket = new S3Bucket(store);
  return {
    derivatives: bucket.store('derivatives/'),
    conversions: bucket.store('conversions/'),
    uploads: bucket.store('config-files/'),
    originals: bucket.store('uploads/'),
  };
}

/**
 * The stores of buckets of the object store (S3_ENDPOINT, S3_REGION, …) under a prefix, one client
 * per bucket: where originals imported from `s3://bucket/prefix` are read.
 */
export function bucketStores(settings: Settings): (bucket: string, prefix: string) => MediaStore {
  const buckets = new Map<string, S3Bucket>();
  return (bucket, prefix) => {
    let made = buckets.get(bucket);
    if (!made) {
      made = new S3Bucket({ ...settings.s3, bucket, prefix: '', presignSeconds: 0 });
      buckets.set(bucket, made);
    }
    return made.store(prefix);
  };
}

/** Opens the configured database (migrating it) and builds the services over it. */
export async function openServices(settings: Settings, options: ServiceOptions = {}): Promise<Services> {
  const lost = (err: Error) =>
    options.log?.warn({ error: err.message }, 'a database connection was lost; the next query opens a new one');
  const services = buildServices(await openDatabase(settings.database, lost), settings, options);
  // Commands and jobs may run without a request that would read the groups saved in the admin area.
  await services.rights.refresh();
  return services;
}

/** Opens the services, runs a task (a command) over them and ends them again. */
export async function withServices<T>(settings: Settings, run: (services: Services) => Promise<T>): Promise<T> {
  const services = await openServices(settings);
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}

const quiet: Log = { info: () => undefined, warn: () => undefined };
