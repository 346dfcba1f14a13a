import { z } from 'zod';
import { defineCall, queryList } from './call.ts';

const assetId = z.string().min(1).max(64);

/** The 3D model formats the asset page shows in its interactive viewer. */
export const modelFormats = ['glb', 'gltf', 'obj', 'stl', 'ply', 'dae'] as const;
export type ModelFormat = (typeof modelFormats)[number];

export const previewCall = defineCall({
  method: 'GET',
  path: 'download/preview',
  summary: 'Signed URL of a preview image (no url means no permission)',
  query: z.object({
    id: assetId,
    target: z.literal('view').default('view'),
    page: z.coerce.number().int().min(0).default(0),
  }),
  response: z.object({
    url: z.string().optional(),
    asset_groups: z.array(z.string()),
    page_count: z.number().int().min(1).optional().describe('Pages of a document, for paging through them'),
    model: z
      .object({ url: z.string(), format: z.enum(modelFormats) })
      .optional()
      .describe(
        "A 3D model's original file (csetid 0) for the interactive viewer, to a caller who may download the original; viewing it is no counted download",
      ),
  }),
});

export const downloadCall = defineCall({
  method: 'GET',
  path: 'download/',
  summary: 'Signed URL of one asset in a conversion set (csetid 0 is the original)',
  query: z.object({ id: assetId, csetid: z.coerce.number().int().min(0), target: z.literal('down').default('down') }),
  response: z.object({ url: z.string() }),
});

export const zipDownloadCall = defineCall({
  method: 'GET',
  path: 'download',
  summary: 'Signed URL of a zip bundle; assets the caller may not download are named, not bundled',
  query: z.object({ operation: z.literal('zip'), csetid: z.coerce.number().int().min(0), id: queryList(assetId) }),
  response: z.object({ url: z.string().optional(), rejected_asset_ids: z.array(z.string()) }),
});

/**
 * The most ids a zip list may name whatever `download.maxAssets` says (-1 too): a zip of more is
 * better made as several, and the list is kept as one row until its URL expires.
 */
export const ZIP_LIST_MAX_IDS = 10_000;

export const zipListCall = defineCall({
  method: 'POST',
  path: 'download/zip',
  summary:
    'Signed URL of a zip bundle of a list of any length: the URL names a reference to the list the server keeps, not the ids; assets the caller may not download are named, not bundled',
  body: z.object({
    csetid: z.number().int().min(0),
    ids: z
      .array(assetId)
      .min(1)
      .max(ZIP_LIST_MAX_IDS)
      .describe('The assets in the order their files go into the zip; at most download.maxAssets'),
  }),
  response: zipDownloadCall.response,
});

export const videoCall = defineCall({
  method: 'GET',
  path: 'download/video/:id',
  summary: 'Signed URLs of the sources and caption tracks of a video asset',
  response: z.object({
    url: z.string().describe('The web MP4 (the first source)'),
    sources: z
      .array(
        z.object({
          src: z.string(),
          type: z.string().describe('The media type, e.g. video/mp4'),
          size: z.number().int().min(0).describe('Bytes'),
        }),
      )
      .describe('The web MP4 first, then the original where a browser plays it and the caller may download it'),
    captions: z.array(
      z.object({
        label: z
          .string()
          .describe(
            "The language's name in the caller's language; '' when the track names none (the player says 'Captions')",
          ),
        src: z.string().describe('Signed URL of the track as WebVTT'),
        lang: z.string().describe("BCP 47 language tag; '' when the track names none"),
      }),
    ),
  }),
});

export const orderCall = defineCall({
  method: 'POST',
  path: 'download/order',
  summary: 'Order process (run_order_process): mail the order address with the requester, a message and asset links',
  body: z.object({
    id: z.array(assetId).min(1).max(1000),
    message: z.string().max(5000).default(''),
  }),
  response: z.object({ ok: z.literal(true) }),
});
