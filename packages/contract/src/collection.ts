import { z } from 'zod';
import { defineCall } from './call.ts';
import { assetDocSchema, sortOrientation } from './search.ts';

export const collectionSchema = z.object({
  indicator: z.string().describe('collection_{number} for DAM collections, the key for pre-searches'),
  label: z.string(),
  translation: z.string().optional(),
  search: z.unknown().optional(),
  sort: z.string().optional(),
  orientation: sortOrientation.optional(),
  src: z.string().optional().describe('Thumbnail id'),
  position: z.number().int(),
});
export type Collection = z.infer<typeof collectionSchema>;

export const listCollectionsCall = defineCall({
  method: 'GET',
  path: 'collection',
  summary: 'Pre-searches and DAM collections shown on the dashboard',
  query: z.object({ operation: z.literal('list') }),
  response: z.object({ collections: z.array(collectionSchema) }),
});

export const damCollectionsCall = defineCall({
  method: 'GET',
  path: 'collection/dam',
  summary: 'Every DAM collection of the catalogue, for the admin who chooses those the dashboard shows',
  response: z.object({
    collections: z.array(z.object({ id: z.number().int(), name: z.string() })),
  }),
});

export const getCollectionCall = defineCall({
  method: 'GET',
  path: 'collection/get',
  summary: 'The first rows of one collection',
  query: z.object({
    collection: z.string().min(1).max(200),
    rows: z.coerce.number().int().min(1).max(200).default(20),
  }),
  response: z.object({
    response: z.object({ docs: z.array(assetDocSchema), numFound: z.number() }),
    errors: z.array(z.string()).optional().describe('Configured fields missing from the index'),
  }),
});
