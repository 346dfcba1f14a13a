import type { Collection } from '@vitrine/contract/collection';

/** A pre-search collection shows 20 rows by default (admin-spec §9). */
export const COLLECTION_ROWS = 20;

/**
 * Poster rows whose posters a first visit asks for before the app's code runs
 * (first-paint/earlyAnswers.ts): those a first screen shows, or is about to (queries.ts then takes them).
 */
export const FIRST_ROWS_ASKED = 3;

/** The collections in their configured order. */
export const inOrder = (collections: readonly Collection[]): Collection[] =>
  [...collections].sort((a, b) => a.position - b.position);
