import { QueryClient } from '@tanstack/react-query';
import { forgetAccountDataOnSignOut } from '@/features/auth/api/account-data';
import { ApiError } from '@/lib/api-client';

/** The app's one query cache: the entry script fills it (prefetch-public-page.ts) before React runs. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change on retry; a network blip might.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});

forgetAccountDataOnSignOut(queryClient);
