import type { AssetDoc } from '@vitrine/contract/search';

export interface InfoField {
  field: string;
  label: string;
}

/** Field values as text: lists joined with commas (portal-spec §3 "Asset"). */
export function fieldText(doc: AssetDoc, field: string, format: (field: string, value: unknown) => string): string {
  const raw = doc[field];
  if (raw === undefined || raw === null || raw === '') return '';
  return (Array.isArray(raw) ? raw : [raw]).map((v) => format(field, v)).join(', ');
}
