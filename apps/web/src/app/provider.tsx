import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { queryClient } from './query-client';

/*
 * Only the admin screens toast; the public pages never do. The toaster (react-hot-toast and its styling
 * library, 4 KB of compressed script) is loaded once an admin screen's chunk has arrived (app/router.tsx),
 * then stays for the visit, so a toast outlives the screen that raised it.
 */
const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })));
let toastsUsed = false;
const listeners = new Set<() => void>();

/** Called when a screen that toasts is loaded: from then on the app shows toasts. */
export function enableToasts(): void {
  if (toastsUsed) return;
  toastsUsed = true;
  listeners.forEach((l) => l());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const getToastsUsed = () => toastsUsed;

export function AppProvider({ children }: { children: ReactNode }) {
  const toasts = useSyncExternalStore(subscribe, getToastsUsed, getToastsUsed);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {toasts ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}
