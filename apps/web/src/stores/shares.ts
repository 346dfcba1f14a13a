import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createShareCall,
  currentShareCall,
  listSharesCall,
  openShareCall,
  revokeShareCall,
  shareSettingsCall,
} from '@vitrine/contract/endpoints';
import type { CreateShareBody } from '@vitrine/contract/share';
import { useSession } from './session.ts';
import { callApi } from '../lib/apiClient.ts';
import { portalLink } from '../lib/portalLinks.ts';

/** Query keys of share links (docs/security.md "Share links"). */
export const shareKeys = {
  all: ['shares'] as const,
  settings: (user: string) => [...shareKeys.all, 'settings', user] as const,
  mine: (user: string) => [...shareKeys.all, 'mine', user] as const,
  current: (session: string) => [...shareKeys.all, 'current', session] as const,
};

/** The address a visitor opens: the token travels after '#', so it never reaches a server log. */
export function shareUrl(token: string, location: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return portalLink({ page: 'share', token }, location);
}

/** Whether the logged-in user may create links, and the sets a link may allow; undefined for guests. */
export function useShareSettings() {
  const { session } = useSession();
  const user = session?.isAssetUser ? session.user : null;
  return useQuery({
    enabled: user !== null,
    queryKey: shareKeys.settings(user ?? ''),
    queryFn: ({ signal }) => callApi(shareSettingsCall, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** For a share link's visitor, the link they look through (title, expiry); not fetched otherwise. */
export function useCurrentShare() {
  const { session } = useSession();
  return useQuery({
    enabled: session?.shareVisit === true,
    queryKey: shareKeys.current(session?.session ?? ''),
    queryFn: ({ signal }) => callApi(currentShareCall, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useMyShares() {
  const { session } = useSession();
  const user = session?.user ?? '';
  return useQuery({
    enabled: user !== '',
    queryKey: shareKeys.mine(user),
    queryFn: ({ signal }) => callApi(listSharesCall, { signal }),
  });
}

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateShareBody) => callApi(createShareCall, { body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

export function useRevokeShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(revokeShareCall, { body: { id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

/** Opens a link as its visitor (the landing page). */
export const openShare = (token: string, password?: string) =>
  callApi(openShareCall, { body: { token, ...(password ? { password } : {}) } });
