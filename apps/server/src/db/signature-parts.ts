/**
 * asset_signature.parts as stored (migration 202612070600_signature_parts): the part hashes' 16
 * hexadecimal digits each, one after the other; null when there are none. Read by the signature
 * repository and by search (similar:'s second tier).
 */
export const partsToText = (parts: readonly string[]): string | null => (parts.length > 0 ? parts.join('') : null);

export const partsFromText = (text: string | null): string[] => (text ? (text.match(/[0-9a-f]{16}/g) ?? []) : []);
