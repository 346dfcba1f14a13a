import { z } from 'zod';

/**
 * One call of the portal API: the single description both the server (validation, OpenAPI) and the
 * web client (typed requests, answer parsing) read. Paths are relative to API_BASE_PATH.
 */
export interface CallDefinition<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  query?: Q;
  body?: B;
  response: R;
}

export { API_BASE_PATH } from './endpoints.ts';

export function defineCall<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  call: CallDefinition<Q, B, R>,
): CallDefinition<Q, B, R> {
  return call;
}

export type CallQuery<C> = C extends CallDefinition<infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type CallBody<C> = C extends CallDefinition<z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type CallAnswer<C> = C extends CallDefinition<z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
/** The query and body as the server's handler gets them: validated, defaults filled in. */
export type CallParsedQuery<C> = C extends CallDefinition<infer Q, z.ZodType, z.ZodType> ? z.output<Q> : never;
export type CallParsedBody<C> = C extends CallDefinition<z.ZodType, infer B, z.ZodType> ? z.output<B> : never;

/** What a caller hands over for an optional part of a call (`query`, `body`): undefined when the call has none. */
export type SchemaInput<T> = NonNullable<T> extends z.ZodType ? z.input<NonNullable<T>> : undefined;
/** What a handler receives for an optional part of a call once it is parsed: undefined when the call has none. */
export type SchemaOutput<T> = NonNullable<T> extends z.ZodType ? z.output<NonNullable<T>> : undefined;

/** Query values arrive as strings; repeated parameters arrive as arrays. */
export const queryList = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v]), z.array(item));

export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Parses a JSON-encoded query parameter, turning bad JSON into an ordinary validation issue. */
export const queryJson = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
