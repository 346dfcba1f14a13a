import { createHash } from 'node:crypto';

/** How a zip list is kept: its asset ids, comma-joined, in the zip's order. */
export const zipListText = (ids: readonly number[]): string => ids.join(',');

export const readZipListText = (text: string): string[] => text.split(',');

/**
 * A zip list's reference: the base64url SHA-256 of its text (43 characters, the contract's
 * ZIP_REF_PATTERN). The same list in the same order gets the same reference, so asking again for a
 * zip of one selection keeps one row and one URL within a signature window; the order is part of it
 * because it decides the order of the entries and which of two equal names gets its " (2)".
 */
export const zipListRef = (text: string): string => createHash('sha256').update(text).digest('base64url');
