import { useSyncExternalStore } from 'react';

/*
 * React hands an error boundary's component stack to the root's onCaughtError, not to the boundary's
 * fallback (the router's errorElement). main.tsx records it here so the crash screen can show the
 * component trace spec §2 asks for.
 */
const traces = new WeakMap<object, string>();
const listeners = new Set<() => void>();

export function recordComponentTrace(error: unknown, info: { componentStack?: string | null }): void {
  if (typeof error !== 'object' || error === null || !info.componentStack) return;
  traces.set(error, info.componentStack);
  listeners.forEach((l) => l());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The component stack recorded for this error, once React has reported it. */
export function useComponentTrace(error: unknown): string | undefined {
  const get = () => (typeof error === 'object' && error !== null ? traces.get(error) : undefined);
  return useSyncExternalStore(subscribe, get, get);
}
