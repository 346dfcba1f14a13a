import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  changeGroupCall,
  createGroupCall,
  createPersonCall,
  deletePersonCall,
  groupHistoryCall,
  groupRollbackCall,
  listGroupsCall,
  peopleCall,
  personCall,
  removeGroupCall,
  updatePersonCall,
} from '@vitrine/contract/endpoints';
import type { CallBody, CallQuery } from '@vitrine/contract/call';
import type * as groups from '@vitrine/contract/groups';
import type { GroupList } from '@vitrine/contract/groups';
import type * as people from '@vitrine/contract/people';
import { callApi } from '../../../lib/apiClient.ts';

/*
 * The People and Groups sections' queries, apart from the admin area's (../queries.ts): the sections
 * load on entry, and a module both import would be split out of the admin chunk.
 */
export type PeopleQuery = CallQuery<typeof people.peopleCall>;

export const peopleKeys = {
  all: ['admin', 'people'] as const,
  list: (query: PeopleQuery) => [...peopleKeys.all, 'list', query] as const,
  person: (id: number) => [...peopleKeys.all, 'person', id] as const,
  groups: ['admin', 'groups'] as const,
};

/** One page of accounts; the page shown stays while the next one loads. */
export function usePeople(query: PeopleQuery) {
  return useQuery({
    queryKey: peopleKeys.list(query),
    queryFn: ({ signal }) => callApi(peopleCall, { signal, query }),
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** One account with what would go with it when it is removed. */
export function usePerson(id: number | null) {
  return useQuery({
    queryKey: peopleKeys.person(id ?? 0),
    queryFn: ({ signal }) => callApi(personCall, { signal, params: { id: String(id) } }),
    enabled: id !== null,
    retry: false,
  });
}

/** The groups with their rights (the People filters and the Groups section read it). */
export function useGroups() {
  return useQuery({
    queryKey: peopleKeys.groups,
    queryFn: ({ signal }) => callApi(listGroupsCall, { signal }),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof people.createPersonCall>) => callApi(createPersonCall, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

export function useUpdatePerson(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof people.updatePersonCall>) =>
      callApi(updatePersonCall, { body, params: { id: String(id) } }),
    onSuccess: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

export function useRemovePerson(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (counts: { bookmarks: number; shareLinks: number }) =>
      callApi(deletePersonCall, { params: { id: String(id) }, query: counts }),
    onSuccess: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}

/** The groups' saved versions, newest first. */
export function useGroupHistory() {
  return useQuery({
    queryKey: [...peopleKeys.groups, 'history'],
    queryFn: ({ signal }) => callApi(groupHistoryCall, { signal }),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Every change of the groups answers with the list in force: it replaces the one shown. */
function useGroupChange<T>(change: (input: T) => Promise<GroupList>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (list) => {
      client.setQueryData(peopleKeys.groups, list);
      void client.invalidateQueries({ queryKey: [...peopleKeys.groups, 'history'] });
      void client.invalidateQueries({ queryKey: peopleKeys.all });
    },
  });
}

export const useCreateGroup = () =>
  useGroupChange((body: CallBody<typeof groups.createGroupCall>) => callApi(createGroupCall, { body }));

export const useChangeGroup = () =>
  useGroupChange(({ name, body }: { name: string; body: CallBody<typeof groups.changeGroupCall> }) =>
    callApi(changeGroupCall, { body, params: { name } }),
  );

export const useRemoveGroup = () => useGroupChange((name: string) => callApi(removeGroupCall, { params: { name } }));

export const useGroupRollback = () =>
  useGroupChange((id: number) => callApi(groupRollbackCall, { params: { id: String(id) } }));
