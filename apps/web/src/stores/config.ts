import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { availableFilesCall, getGlobalConfigCall } from '@vitrine/contract/endpoints';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { ConfigFileName } from '@vitrine/contract/config';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import { callApi } from '../lib/apiClient.ts';
import { bootData } from '../lib/bootData.ts';
import { toast } from '../lib/toast.ts';

/** Config status values of portal-spec §4 that the portal (which never saves) can be in. */
export type ConfigStatus = 'loading' | 'success' | 'unavailable';

export const configKeys = {
  all: ['config'] as const,
  global: () => [...configKeys.all, 'global'] as const,
  files: () => [...configKeys.all, 'files'] as const,
};

/** Config changes only when an admin saves it, and an unavailable config stays unavailable. */
const onceOnly = {
  staleTime: Infinity,
  gcTime: Infinity,
  retry: false,
  // A screen mounting later must not ask again after a failure.
  retryOnMount: false,
  refetchOnReconnect: false,
} as const;

const noFiles = Object.fromEntries(configFileNames.map((n) => [n, false])) as Record<ConfigFileName, boolean>;

/**
 * The global config. While it loads and when it is unavailable the defaults apply, so the portal
 * stays usable; `status` says which.
 */
export function useGlobalConfig(): { config: GlobalConfig; status: ConfigStatus } {
  const query = useQuery({
    queryKey: configKeys.global(),
    queryFn: ({ signal }) => callApi(getGlobalConfigCall, { signal }),
    // The page carries it on a first load (lib/bootData.ts).
    initialData: () => bootData()?.config,
    ...onceOnly,
  });
  const status: ConfigStatus = query.isError ? 'unavailable' : query.isSuccess ? 'success' : 'loading';
  return { config: query.data ?? defaultGlobalConfig, status };
}

/** Which admin-uploaded files exist; none while loading or when the call fails. */
export function useAvailableFiles(): Record<ConfigFileName, boolean> {
  const query = useQuery({
    queryKey: configKeys.files(),
    queryFn: ({ signal }) => callApi(availableFilesCall, { signal }),
    initialData: () => bootData()?.files,
    ...onceOnly,
  });
  return query.data ?? noFiles;
}

/** Whether the config shows the logo of a screen (visibleLogos; shown unless switched off). */
export { logoVisible } from '@vitrine/contract/config-defaults';

/** Raises the config error notice once when the config turns out to be unavailable. */
export function useConfigErrorNotice(status: ConfigStatus): void {
  useEffect(() => {
    if (status === 'unavailable') toast.show('toast.config.error', 'error');
  }, [status]);
}
