import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getGlobalConfigCall } from '@vitrine/contract/config';
import { callApi } from '../../lib/apiClient.ts';

/** The login part of the global config (admin-spec §3 "login"), read leniently with its defaults. */
const loginConfigSchema = z
  .object({
    show_passwordReset: z.boolean().default(true),
    register: z
      .object({
        show_button: z.boolean().default(false),
        links: z.record(z.string(), z.string()).default({}),
      })
      .default({ show_button: false, links: {} }),
  })
  .catch({ show_passwordReset: true, register: { show_button: false, links: {} } });
export type LoginConfig = z.infer<typeof loginConfigSchema>;

export const loginKeys = { config: ['config', 'global', 'login'] as const };

/** Which buttons the login page offers; the defaults hold while the config loads or if it cannot. */
export function useLoginConfig(): LoginConfig {
  const query = useQuery({
    queryKey: loginKeys.config,
    queryFn: async () => loginConfigSchema.parse((await callApi(getGlobalConfigCall)).login),
    retry: false,
    staleTime: 5 * 60_000,
  });
  return query.data ?? loginConfigSchema.parse(undefined);
}
