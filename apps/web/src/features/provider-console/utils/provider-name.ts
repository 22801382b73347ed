import { usePublicConfig } from '@/features/auth/api/get-public-config';

/** The provider's name until the server has answered (and if it cannot): the configuration default. */
export const DEFAULT_PROVIDER_NAME = 'Open Property Portal';

/** The provider's name from the server's configuration (PROVIDER_NAME), for the console's titles. */
export function useProviderName(): string {
  return usePublicConfig().data?.providerName ?? DEFAULT_PROVIDER_NAME;
}
