import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { duplicatesCall } from '@vitrine/contract/endpoints';
import { callApi } from '../../lib/apiClient.ts';
import { editKeys } from '../../stores/edit.ts';

/** Under the editors' keys, so that a move to the bin (refreshAfterBin) asks for the report again. */
export const duplicateKeys = {
  all: [...editKeys.all, 'duplicates'] as const,
  page: (start: number, rows: number) => [...duplicateKeys.all, start, rows] as const,
};

export function useDuplicates(start: number, rows: number) {
  return useQuery({
    queryKey: duplicateKeys.page(start, rows),
    queryFn: ({ signal }) => callApi(duplicatesCall, { query: { start, rows }, signal }),
    placeholderData: keepPreviousData,
  });
}
