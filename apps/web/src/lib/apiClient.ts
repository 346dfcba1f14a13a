import type { CallAnswer, CallDefinition, SchemaInput } from '@vitrine/contract/call';
import { API_BASE_PATH, type Endpoint } from '@vitrine/contract/endpoints';
import type { ErrorBody } from '@vitrine/contract/errors';
import { routeHref } from '@vitrine/contract/paths';

/**
 * The only place in the web app that talks HTTP (ARCHITECTURE §2). Answers are not parsed again
 * here: the server validates and serialises each one with the call's contract schema (defaults
 * filled), so the browser carries only the calls' types and no schema library.
 */

const TOKEN_KEY = 'token';
/** The local reload counter of the 403 interceptor (portal-spec §7). */
export const RELOAD_KEY = 'reload';
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

let currentLanguage = 'de';

/** The translation set's key naming the content language of its interface language (admin-spec §3 "Translation set"). */
export const SETS_CONTENT_LANGUAGE = 'metadata.content_language';

/**
 * The Accept-Language of the app's calls: the interface language, then the content language its
 * translation set names, so the server (which picks the first content language the header lists)
 * answers assets in the language the app shows them in. Anything that is not a language code is
 * left out (older stored sets held a label under that key).
 */
export function acceptLanguage(ui: string, setsContentLanguage: unknown): string {
  const named = typeof setsContentLanguage === 'string' && /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i.test(setsContentLanguage);
  return named && setsContentLanguage.toLowerCase() !== ui.toLowerCase() ? `${ui}, ${setsContentLanguage};q=0.9` : ui;
}

/** The Accept-Language of every call from now on (see `acceptLanguage`). */
export function setRequestLanguage(lang: string): void {
  currentLanguage = lang;
}

export function getSessionToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setSessionToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

function readCookie(name: string): string | undefined {
  return document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;
  /** The answer's Retry-After in seconds (429 `busy`, `rate_limited`), when it gave one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: ErrorBody | undefined, retryAfterSeconds?: number) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** How long to wait before asking again: the answer's Retry-After (10 s without one), 1 to 60 s. */
  retryWaitSeconds(): number {
    return Math.min(60, Math.max(1, Math.ceil(this.retryAfterSeconds ?? 10)));
  }
}

function retryAfterOf(res: Response): number | undefined {
  const seconds = Number(res.headers.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

export interface CallOptions<C extends CallDefinition> {
  query?: SchemaInput<C['query']>;
  body?: SchemaInput<C['body']>;
  params?: Record<string, string>;
  signal?: AbortSignal;
  /** A multipart body (file uploads) instead of a JSON one. */
  form?: FormData;
}

function buildUrl(call: Endpoint, query: unknown, params: Record<string, string> = {}): string {
  const path = call.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      search.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  }
  const qs = search.toString();
  return `${API_BASE_PATH}${path}${qs ? `?${qs}` : ''}`;
}

/** Calls whose 401 or 403 the caller handles itself (portal-spec §7: login and convert-set calls; a share link's password). */
const ownsUnauthorized = new Set(['session/get', 'share/open']);
const ownsForbidden = new Set(['session/get', 'session/csets']);

type SessionLostListener = () => void;
const sessionLostListeners = new Set<SessionLostListener>();

/** Called when the server says the session is gone (401); the session state clears itself. */
export function onSessionLost(listener: SessionLostListener): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

/** How the interceptor reloads the page; replaceable in tests, where jsdom cannot reload. */
export const page = { reload: (): void => window.location.reload() };

function goToLogin(): void {
  for (const l of sessionLostListeners) l();
  const login = routeHref({ page: 'login' });
  if (!window.location.hash.startsWith(login)) window.location.hash = login;
}

/**
 * The interceptor of portal-spec §7: 401 sends to login; 403 reloads the page once (counted in
 * local storage so the count survives the reload), and a second 403 in a row goes to login.
 */
function intercept(call: Endpoint, status: number): void {
  if (status === 401 && !ownsUnauthorized.has(call.path)) {
    goToLogin();
  } else if (status === 403 && !ownsForbidden.has(call.path)) {
    const reloads = Number(localStorage.getItem(RELOAD_KEY) ?? 0);
    if (reloads < 1) {
      localStorage.setItem(RELOAD_KEY, String(reloads + 1));
      page.reload();
    } else {
      localStorage.removeItem(RELOAD_KEY);
      goToLogin();
    }
  }
}

/** The address of a call, for what the browser loads itself (<img>, <link>, fonts). */
export function callUrl<C extends CallDefinition>(
  call: Endpoint<C>,
  options: Omit<CallOptions<C>, 'body' | 'signal'> = {},
): string {
  return buildUrl(call, options.query, options.params);
}

/** An error answer need not be JSON: a proxy in front of the server may answer with a page of its own. */
function jsonOrUndefined(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** An error answer as the contract's error body describes it; anything else is no body. */
function errorBody(json: unknown): ErrorBody | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const body = json as Partial<Record<keyof ErrorBody, unknown>>;
  return typeof body.error === 'string' && typeof body.message === 'string' ? (json as ErrorBody) : undefined;
}

/** The headers of a call in the language `lang` for the session `token`: also the XSRF token. */
function requestHeaders(lang: string, token: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': lang, Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = decodeURIComponent(xsrf);
  return headers;
}

/**
 * The headers a call would carry now (language, session token, XSRF token), for requests another
 * library sends: the upload page's tus client sends them with each of its requests.
 */
export const apiHeaders = (): Record<string, string> => requestHeaders(currentLanguage, getSessionToken());

/** An answer read whole. */
interface Answered {
  res: Response;
  text: string;
}

const readAnswer = async (res: Response): Promise<Answered> => ({ res, text: await res.text() });

/** Who asks, as far as an answer depends on it: the language and the session. */
export interface Asker {
  lang: string;
  token: string | null;
}

/** How long an answer asked for early waits for the call that takes it (ms); later calls ask again. */
const EARLY_KEPT_MS = 30_000;

/**
 * An answer asked for early: when it was asked, the answer to come, the answer once it has come (if
 * ok), and whether the call has ended (answered or failed).
 */
interface EarlyAnswer {
  at: number;
  answer: Promise<Answered | undefined>;
  arrived?: Answered;
  ended?: boolean;
}

/**
 * Answers asked for early (first-paint/earlyAnswers.ts), by method, address, language and session; each taken
 * once. One map for the page: the page's first-paint script (src/first-paint) asks them with its own
 * copy of this module, before the app's code has arrived, and the app's calls take them from here.
 */
const shared = globalThis as { vitrineEarlyAnswers?: Map<string, EarlyAnswer> };
shared.vitrineEarlyAnswers ??= new Map<string, EarlyAnswer>();
const early: Map<string, EarlyAnswer> = shared.vitrineEarlyAnswers;

const earlyKey = (method: string, url: string, asker: Asker) => JSON.stringify([method, url, asker.lang, asker.token]);

/**
 * Asks a call without a body now, for `asker`, before the code that needs its answer runs; the first
 * callApi of the same call with the same language and session token within EARLY_KEPT_MS takes this
 * answer instead of asking again. Answers the call's answer, or undefined when it failed: the
 * taking call then asks itself.
 */
export function askEarly<C extends CallDefinition>(
  call: Endpoint<C>,
  options: Pick<CallOptions<C>, 'query' | 'params'>,
  asker: Asker,
): Promise<CallAnswer<C> | undefined> {
  const url = buildUrl(call, options.query, options.params);
  const asked: EarlyAnswer = {
    at: performance.now(),
    answer: fetch(url, {
      method: call.method,
      headers: requestHeaders(asker.lang, asker.token),
      credentials: 'same-origin',
    })
      .then(readAnswer)
      .then(
        (answered) => {
          asked.ended = true;
          if (!answered.res.ok) return undefined;
          asked.arrived = answered;
          return answered;
        },
        () => {
          asked.ended = true;
          return undefined;
        },
      ),
  };
  early.set(earlyKey(call.method, url, asker), asked);
  return asked.answer.then((answered) =>
    answered ? (jsonOrUndefined(answered.text) as CallAnswer<C> | undefined) : undefined,
  );
}

/**
 * Resolves once every call asked early has ended, those asked on the way included (the dashboard's
 * rows are asked once its collections have come), or after `atMostMs`. The app's first render behind
 * the page's first paint waits for it (main.tsx): an answer that came while that render was drawn
 * would change a query the render has read, and React would draw the whole tree again at once, in
 * one long task (decision 0244).
 */
export async function earlyAnswersEnded(atMostMs = 2_000): Promise<void> {
  const until = performance.now() + atMostMs;
  for (;;) {
    const pending = [...early.values()].filter((asked) => !asked.ended);
    const left = until - performance.now();
    if (pending.length === 0 || left <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(pending.map((asked) => asked.answer)),
      new Promise((resolve) => (timer = setTimeout(resolve, left))),
    ]);
    clearTimeout(timer);
    // The calls asked on an answer are asked once the code waiting on that answer has run.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * The early answer of this request, taken once (only when `take` agrees); undefined when there is
 * none or it is too old.
 */
function takeEarly(
  method: string,
  url: string,
  asker: Asker,
  take: (asked: EarlyAnswer) => boolean = () => true,
): EarlyAnswer | undefined {
  if (early.size === 0) return undefined;
  const key = earlyKey(method, url, asker);
  const asked = early.get(key);
  if (!asked || !take(asked)) return undefined;
  early.delete(key);
  return performance.now() - asked.at < EARLY_KEPT_MS ? asked : undefined;
}

/**
 * The early answer of a call the app is about to make, when it has come already: taken once, as
 * callApi would take it. It goes into the query cache before a screen's first render, which then
 * draws the answer instead of a loading state and a second render (issue #28: the asset page's
 * preview). Undefined while it is on its way: the query's own callApi then waits for it.
 */
export function arrivedEarly<C extends CallDefinition>(
  call: Endpoint<C>,
  options: Pick<CallOptions<C>, 'query' | 'params'>,
): CallAnswer<C> | undefined {
  const url = buildUrl(call, options.query, options.params);
  const asker = { lang: currentLanguage, token: getSessionToken() };
  const arrived = takeEarly(call.method, url, asker, (asked) => asked.arrived !== undefined)?.arrived;
  return arrived && (jsonOrUndefined(arrived.text) as CallAnswer<C> | undefined);
}

/** Performs one contract call; the answer has the call's answer type. */
export async function callApi<C extends CallDefinition>(
  call: Endpoint<C>,
  options: CallOptions<C> = {},
): Promise<CallAnswer<C>> {
  const asker = { lang: currentLanguage, token: getSessionToken() };
  const headers = requestHeaders(asker.lang, asker.token);
  let body: string | FormData | undefined = options.form;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const url = buildUrl(call, options.query, options.params);
  const taken = body === undefined ? takeEarly(call.method, url, asker)?.answer : undefined;
  const { res, text } =
    (taken && (await taken)) ??
    (await readAnswer(
      await fetch(url, { method: call.method, headers, body, credentials: 'same-origin', signal: options.signal }),
    ));
  if (!res.ok) {
    intercept(call, res.status);
    throw new ApiError(res.status, errorBody(jsonOrUndefined(text)), retryAfterOf(res));
  }
  return (text ? JSON.parse(text) : undefined) as CallAnswer<C>;
}

/** The file name of a `Content-Disposition` header: the UTF-8 `filename*` when given (RFC 6266). */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
}

export interface FileDownload {
  blob: Blob;
  filename: string | undefined;
}

/**
 * Loads a signed media URL as a blob (portal-spec §7: download answers are fetched as blobs),
 * reporting progress from the body as it arrives against `Content-Length`.
 */
export async function fetchFile(
  url: string,
  onProgress?: (loaded: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<FileDownload> {
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok) throw new ApiError(res.status, undefined);
  const length = Number(res.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const filename = dispositionFilename(res.headers.get('content-disposition'));
  if (!res.body) return { blob: new Blob([await res.arrayBuffer()], { type }), filename };
  const reader = res.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    onProgress?.(loaded, total);
  }
  return { blob: new Blob(parts, { type }), filename };
}

/** The answer of a call, or null when the server says there is no such thing (404). */
export async function nullIfNotFound<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
