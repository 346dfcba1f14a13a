import type { z } from 'zod';
import { API_BASE_PATH, type CallDefinition } from '@vitrine/contract/call';
import { errorBodySchema, type ErrorBody } from '@vitrine/contract/errors';

/** The only place in the web app that talks HTTP (ARCHITECTURE §2). */

const TOKEN_KEY = 'token';
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

let currentLanguage = 'de';

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

  constructor(status: number, body: ErrorBody | undefined) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.status = status;
    this.body = body;
  }
}

type Input<T> = NonNullable<T> extends z.ZodType ? z.input<NonNullable<T>> : undefined;

export interface CallOptions<C extends CallDefinition> {
  query?: Input<C['query']>;
  body?: Input<C['body']>;
  params?: Record<string, string>;
  signal?: AbortSignal;
}

function buildUrl(call: CallDefinition, query: unknown, params: Record<string, string> = {}): string {
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

/** The address of a call, for what the browser loads itself (<img>, <link>, fonts). */
export function callUrl<C extends CallDefinition>(
  call: C,
  options: Omit<CallOptions<C>, 'body' | 'signal'> = {},
): string {
  return buildUrl(call, options.query, options.params);
}

/** Performs one contract call and parses the answer with the contract's schema. */
export async function callApi<C extends CallDefinition>(
  call: C,
  options: CallOptions<C> = {},
): Promise<z.output<C['response']>> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage, Accept: 'application/json' };
  const token = getSessionToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = decodeURIComponent(xsrf);
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(buildUrl(call, options.query, options.params), {
    method: call.method,
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
  const text = await res.text();
  const json: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const parsed = errorBodySchema.safeParse(json);
    throw new ApiError(res.status, parsed.success ? parsed.data : undefined);
  }
  return call.response.parse(json) as z.output<C['response']>;
}
