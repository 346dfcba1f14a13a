/**
 * @vitrine/search-engine: the public API of the search engine (README.md explains it). The host
 * implements the ports (ports.ts, text-index.ts) and builds a SearchEngine over them.
 */
export { SearchEngine } from './search-engine.ts';
export {
  baseContentLanguages,
  MAX_QUERY_PREFIXES,
  MAX_QUERY_TERMS,
  pause,
  QUERY_TOO_COSTLY,
  SearchInputError,
  type EngineQuery,
  type EngineResult,
  type EngineTimes,
  type FacetValue,
  type Progress,
} from './engine-types.ts';
export { parseNumber, parseRange } from './facets.ts';
export {
  CHANGE_READER_TTL_MS,
  type CatalogueWriting,
  type CatchUpOptions,
  type WrittenChange,
} from './catch-up/catch-up.ts';
export { WRITTEN_PART_ASSETS, writtenChangeOf, writtenParts } from './catch-up/written-change.ts';
export { TEXT_CACHE } from './evaluate.ts';
export { columnOf, FieldRegistry, pickLanguage, type SearchField } from './fields.ts';
export {
  ALL_ASSETS,
  rowsByAsset,
  type AccessRule,
  type AssetBatch,
  type Catalogue,
  type CatalogueAsset,
  type CatalogueState,
  type ChangeRun,
  type EnginePorts,
  type SignatureRow,
  type TextState,
  type ValueRow,
} from './ports.ts';
export { parseIdList, type TextDocument, type TextIndex } from './text-index.ts';
export { textDocuments, textValueFields, writeDocuments, writeTexts } from './text-documents.ts';
export { documentWords, indexedDocument, TSVECTOR_TEXT_CHARS } from './frequent-words.ts';
export type { QueryNode, TextAtom, VisualAtom } from './query.ts';
export { COLOUR, colourDistance, parseHexColour, partHashesOf, similarDistance, similarTo, SIMILAR } from './alike.ts';
export { popcount, VISUAL_COLOURS, VisualColumn } from './facet-index/visual-column.ts';
