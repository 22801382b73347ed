import { accountKeys } from '@/features/auth/api/account-data';

/** Query keys of the provider console, so mutations invalidate exactly what they change. */
export const providerKeys = {
  all: [...accountKeys.all, 'provider-console'] as const,
  clients: () => [...providerKeys.all, 'clients'] as const,
  admins: () => [...providerKeys.all, 'admins'] as const,
  contacts: (clientId: number) => [...providerKeys.all, 'contacts', clientId] as const,
  rollRuns: (clientId: number) => [...providerKeys.all, 'roll-runs', clientId] as const,
  rollRun: (clientId: number, runId: number) => [...providerKeys.all, 'roll-run', clientId, runId] as const,
  rollFormats: () => [...providerKeys.all, 'roll-formats'] as const,
  parcelLayers: (clientId: number) => [...providerKeys.all, 'parcel-layers', clientId] as const,
};
