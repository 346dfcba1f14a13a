import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallAnswer } from '@vitrine/contract/call';
import type { editOptionsCall as optionsCall } from '@vitrine/contract/edit';
import { createCollectionCall, editOptionsCall } from '@vitrine/contract/endpoints';
import { callApi } from '../../lib/apiClient.ts';
import { useSession } from '../../stores/session.ts';

/** Query keys of the upload page: what the editor may upload, per account. */
export const uploadKeys = {
  options: (user: string) => ['edit', 'options', user] as const,
};

/** edit/options: the collections and the upload limits (the amount used today as of the answer). */
export function useEditOptions() {
  const { session } = useSession();
  const user = session?.isEditor ? (session.user ?? '') : '';
  return useQuery({
    enabled: user !== '',
    queryKey: uploadKeys.options(user),
    queryFn: ({ signal }) => callApi(editOptionsCall, { signal }),
  });
}

/** edit/collection: makes a collection (or answers the one of that name); the options list it then. */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callApi(createCollectionCall, { body: { name } }),
    // Listed at once, so that it can be chosen before the options are asked again.
    onSuccess: (made) => {
      queryClient.setQueriesData<CallAnswer<typeof optionsCall>>({ queryKey: ['edit', 'options'] }, (old) =>
        old && !old.collections.some((c) => c.id === made.id)
          ? { ...old, collections: [...old.collections, made] }
          : old,
      );
    },
  });
}
