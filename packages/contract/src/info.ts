import { z } from 'zod';
import { defineCall } from './call.ts';
import { languageCode } from './formats.ts';

export const healthCall = defineCall({
  method: 'GET',
  path: 'health',
  summary: 'Liveness and database reachability',
  response: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']), version: z.string() }),
});

/**
 * Readiness for load balancers: 200 only when this process has its search index loaded and its
 * database answers within a short time; otherwise 503 with the error id `unavailable` and one detail
 * per part not ready (`search`, `database`). `health` stays the liveness check.
 */
export const readyCall = defineCall({
  method: 'GET',
  path: 'ready',
  summary: 'Readiness: 200 when the search index is loaded and the database answers, else 503 unavailable',
  response: z.object({ status: z.literal('ready'), database: z.enum(['sqlite', 'postgres']), version: z.string() }),
});

export const checkVersionCall = defineCall({
  method: 'GET',
  path: 'info/check_version',
  summary: 'The backend version (admins are warned when major or minor differ from the frontend)',
  response: z.object({ version: z.string() }),
});

export const languageSchema = z.object({
  code: languageCode,
  name: z.string(),
  ui: z.boolean().describe('Available as interface language'),
  content: z.boolean().describe('Available as content language'),
});
export type Language = z.infer<typeof languageSchema>;

export const allLanguagesCall = defineCall({
  method: 'GET',
  path: 'info/all_languages',
  summary: 'Languages with their names in the requested language',
  query: z.object({ lang: languageCode.optional() }),
  response: z.object({ languages: z.array(languageSchema) }),
});

export const downloadInfoCall = defineCall({
  method: 'GET',
  path: 'info/downloads',
  summary: 'How many assets one download may hold (-1 unlimited)',
  response: z.object({ max_assets: z.number().int().min(-1) }),
});
