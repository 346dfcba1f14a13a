import { z } from 'zod';
import { filterVals } from './field-format.ts';
import { MAX_SEARCH_ROWS } from './endpoints.ts';
import { defineCall, queryInt, queryJson, queryList } from './call.ts';

/** Field names as declared in the index field schema. */
export const fieldName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a field name');

/** A range value is written 'from TO to' (ARCHITECTURE §4, portal-spec §2 "Search"). */
export const rangeValue = z.string().regex(/^\s*\S+\s+TO\s+\S+\s*$/, "must be written 'from TO to'");

export const facetSelectionSchema = z.object({
  key: fieldName,
  values: z.array(z.string().max(500)).max(1000),
  range: z.boolean().optional(),
});
export type FacetSelection = z.infer<typeof facetSelectionSchema>;

export const suggestionSelectionSchema = z.object({
  field_name: fieldName,
  values: z.array(z.string().max(500)).max(1000),
});
export type SuggestionSelection = z.infer<typeof suggestionSelectionSchema>;

export const sortOrientation = z.enum(['asc', 'desc']);
export const sortParam = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63} (asc|desc)$/, "must be 'field asc' or 'field desc'");

/** How a facet's values are ordered: by count or alphabetically, ascending or descending. */
export const facetValueSorts = ['count', 'alphabetical'] as const;
export interface FacetOrder {
  sort: (typeof facetValueSorts)[number];
  orientation: z.infer<typeof sortOrientation>;
}

/** One facet's value order in a search call, as `facetSortEntry` (endpoints.ts) writes it. */
export const facetSortParam = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,63}:(count|alphabetical):(asc|desc)$/,
    "must be 'field:count:asc', 'field:count:desc', 'field:alphabetical:asc' or 'field:alphabetical:desc'",
  )
  .transform((entry) => {
    const [field, sort, orientation] = entry.split(':') as [string, FacetOrder['sort'], FacetOrder['orientation']];
    return { field, sort, orientation };
  });

export { MAX_SEARCH_ROWS } from './endpoints.ts';

export const searchQuerySchema = z.object({
  solr_q: z.string().max(2000).default('*'),
  filter: queryJson(z.array(facetSelectionSchema).max(100)).optional(),
  suggestions_filter: queryJson(z.array(suggestionSelectionSchema).max(100)).optional(),
  solr_facetfields: queryList(fieldName),
  solr_sort: sortParam.optional(),
  solr_rows: queryInt(0, MAX_SEARCH_ROWS).default(25),
  solr_start: queryInt(0, 10_000_000).default(0),
  id: z.string().max(100_000).optional().describe('Comma-joined asset ids'),
  meta_collections: z.coerce.number().int().min(0).optional(),
  facet_limit: queryInt(1, 10_000).default(100).describe("Values per facet field ('show more' pages)"),
  facet_offset: queryInt(0, 1_000_000).default(0).describe('Facet values to skip'),
  facet_sort: queryList(facetSortParam).describe(
    "Order of a facet's values, repeated per facet: 'field:count|alphabetical:asc|desc' (the search " +
      "settings' value order of the facet). A facet without one keeps the index field's order.",
  ),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** An asset as the portal shows it; configured metadata fields come as further keys. */
export const assetDocSchema = z
  .object({
    id: z.string(),
    url: z.string().optional().describe('Signed thumbnail URL'),
    thumbhash: z
      .string()
      .optional()
      .describe('ThumbHash (base64) of the thumbnail: a placeholder to draw until the picture is shown'),
    width: z.number().optional(),
    height: z.number().optional(),
    pixel_x: z.number().optional(),
    pixel_y: z.number().optional(),
    bbox_x: z.number().optional(),
    bbox_y: z.number().optional(),
    rating: z.union([z.number(), z.array(z.number())]).optional(),
    color_code: z.union([z.number(), z.array(z.number())]).optional(),
    asset_groups: z.array(z.string()).optional(),
    isBookmarked: z.boolean().optional(),
  })
  .catchall(z.unknown());
export type AssetDoc = z.infer<typeof assetDocSchema>;

export const facetValueSchema = z.object({ value: z.string(), label: z.string().optional(), count: z.number() });
export type FacetValue = z.infer<typeof facetValueSchema>;

export const searchAnswerSchema = z.object({
  response: z.object({ docs: z.array(assetDocSchema), numFound: z.number(), start: z.number() }),
  facetCounts: z.object({
    facetFields: z.record(z.string(), z.array(facetValueSchema)),
    facetRanges: z.record(z.string(), z.object({ min: z.number().nullable(), max: z.number().nullable() })),
  }),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

export const searchCall = defineCall({
  method: 'GET',
  path: 'search',
  summary: 'Full-text and faceted search over the assets the caller may see',
  query: searchQuerySchema,
  response: searchAnswerSchema,
});

export const assetsCall = defineCall({
  method: 'GET',
  path: 'assets',
  summary: 'Assets by id (those the caller may see)',
  query: z.object({
    assetid: z
      .string()
      .min(1)
      .max(100_000)
      .describe(`JSON array or comma-joined ids, at most ${MAX_SEARCH_ROWS} (a search page)`),
  }),
  response: z.object({ response: z.object({ docs: z.array(assetDocSchema) }) }),
});

export const indexFieldSchema = z.object({
  field_name: fieldName,
  default_labels: z.record(z.string(), z.string()),
  is_facet: z.boolean(),
  range_facet: z.boolean(),
  multi_valued: z.boolean(),
  origin: z.string(),
  type: z.enum(['string', 'text', 'int', 'float', 'date', 'boolean']),
  options: z
    .object({
      filter: z.boolean().optional(),
      filterVal: z.enum(filterVals).optional(),
      multivalue: z.enum(['checkbox', 'radio', 'slider']).optional(),
      preview: z.number().int().optional(),
      sort: z.enum(facetValueSorts).optional(),
      sort_orientation: sortOrientation.optional(),
    })
    .default({}),
});
export type IndexField = z.infer<typeof indexFieldSchema>;

export const indexFieldsCall = defineCall({
  method: 'GET',
  path: 'index/fields',
  summary: 'The fields of the index the portal may display, filter and sort by',
  response: z.object({ visible_fields: z.array(indexFieldSchema) }),
});

export const contentLocalesCall = defineCall({
  method: 'GET',
  path: 'index/content_locales',
  summary: 'Languages metadata values may carry',
  response: z.object({ locales: z.array(z.string()) }),
});

export const suggestionGroupSchema = z.object({
  field_name: z.string(),
  docs: z.array(z.object({ label: z.string(), value: z.string() })),
  preview: z.number().int().describe('How many of docs to show before "more"'),
  total: z.number().int().describe('How many values match in all'),
});
export type SuggestionGroup = z.infer<typeof suggestionGroupSchema>;

/** Default fields suggestions come from when the request names none. */
export const defaultSuggestionFields = ['keywords', 'category', 'creator'];

export const suggestionsCall = defineCall({
  method: 'GET',
  path: 'search/suggestions',
  summary: 'Field values containing words that start with the typed text, for the suggestion chips',
  query: z.object({
    text: z.string().min(1).max(200),
    fields: queryList(fieldName),
    preview: queryInt(1, 50).default(5),
  }),
  response: z.object({ suggestions: z.array(suggestionGroupSchema) }),
});
