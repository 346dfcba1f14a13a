import { z } from 'zod';

/** Stable error ids: clients branch on these, never on messages. */
export const errorIds = [
  'validation',
  'query_too_costly',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'rate_limit_reached',
  'busy',
  'too_long',
  'payload_too_large',
  'unsupported_media_type',
  'range_not_satisfiable',
  'unreadable_file',
  'wrong_credentials',
  'login_blocked',
  'share_password_required',
  'wrong_share_password',
  'xsrf',
  'link_invalid',
  'account_disabled',
  'own_admin',
  'last_admin',
  'unavailable',
  'internal',
] as const;

export const errorIdSchema = z.enum(errorIds);
export type ErrorId = z.infer<typeof errorIdSchema>;

export const errorStatus: Record<ErrorId, number> = {
  validation: 400,
  query_too_costly: 400,
  link_invalid: 400,
  unauthorized: 401,
  wrong_credentials: 401,
  login_blocked: 401,
  share_password_required: 401,
  wrong_share_password: 401,
  forbidden: 403,
  too_long: 403,
  xsrf: 403,
  account_disabled: 403,
  not_found: 404,
  conflict: 409,
  own_admin: 409,
  last_admin: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  unreadable_file: 422,
  rate_limited: 429,
  rate_limit_reached: 429,
  busy: 429,
  internal: 500,
  unavailable: 503,
};

export const errorBodySchema = z.object({
  error: errorIdSchema,
  message: z.string(),
  details: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('For validation errors: which parameter is wrong and why'),
  retryAfterMinutes: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('For login_blocked: whole minutes until the next login attempt is possible'),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
