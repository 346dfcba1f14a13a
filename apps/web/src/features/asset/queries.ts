import { useQuery } from '@tanstack/react-query';
import { assetsCall, indexFieldsCall, previewCall, videoCall } from '@vitrine/contract/endpoints';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import { callApi } from '../../lib/apiClient.ts';

/** Query keys of the asset page; docs depend on the content language. */
export const assetKeys = {
  all: ['asset'] as const,
  doc: (lang: string, id: string) => [...assetKeys.all, 'doc', lang, id] as const,
  preview: (id: string, page: number) => [...assetKeys.all, 'preview', id, page] as const,
  video: (lang: string, id: string) => [...assetKeys.all, 'video', lang, id] as const,
  fields: () => [...assetKeys.all, 'fields'] as const,
};

/** Signed URLs stay valid for hours; refetching them earlier only costs requests. */
const staleTime = 5 * 60_000;

/** The asset by id; null when the caller may not see it (or it does not exist). */
export function useAssetDoc(lang: string, id: string) {
  return useQuery({
    queryKey: assetKeys.doc(lang, id),
    queryFn: async ({ signal }): Promise<AssetDoc | null> =>
      (await callApi(assetsCall, { query: { assetid: id }, signal })).response.docs[0] ?? null,
    staleTime,
  });
}

/** The preview (page 0) or a page of a document; without url the caller may not download it. */
export function usePreview(id: string, page: number) {
  return useQuery({
    queryKey: assetKeys.preview(id, page),
    queryFn: ({ signal }) => callApi(previewCall, { query: { id, target: 'view', page }, signal }),
    staleTime,
  });
}

/** The player's sources and caption tracks; the tracks are named in the interface language `lang`. */
export function useVideoSource(lang: string, id: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: assetKeys.video(lang, id),
    queryFn: ({ signal }) => callApi(videoCall, { params: { id }, signal }),
    staleTime,
    retry: false,
  });
}

/** The index fields, for labels and formatters of the metadata columns. */
export function useIndexFields() {
  return useQuery({
    queryKey: assetKeys.fields(),
    queryFn: async ({ signal }): Promise<IndexField[]> => (await callApi(indexFieldsCall, { signal })).visible_fields,
    staleTime: 10 * 60_000,
  });
}
