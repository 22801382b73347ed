import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { ImportRunDto, PublicClient, User } from '@opp/contracts';
import { Component as ClientRoute } from '@/app/routes/provider-admin/client';
import { Component as ConsoleRoute } from '@/app/routes/provider-admin/console';
import { paths } from '@/config/paths';
import { authStore } from '@/lib/auth-store';

/*
 * A fake portal API for the console's component tests: requests are answered by handlers keyed
 * "METHOD /path", and every request is recorded so a test can check what the console sent.
 */

export interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}
type Handler = (
  call: Call,
) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;

export function fakeApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const call: Call = {
      method,
      path: url.pathname,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      auth: headers.get('authorization'),
    };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    const res = handler
      ? await handler(call)
      : { status: 404, body: { code: 'not_found', message: 'No such API endpoint' } };
    return new Response(res.body === undefined ? null : JSON.stringify(res.body), {
      status: res.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, handlers };
}

export const errorBody = (statusCode: number, code: string, message: string, fields?: unknown[]) => ({
  statusCode,
  code,
  message,
  error: message,
  ...(fields ? { fields } : {}),
});

export const provider: User = {
  UserId: 1,
  Username: 'provider.one',
  Email: 'one@provider.test',
  RoleID: 1,
  Manages: null,
  TwoFactorEnabled: false,
};

export function makeClient(over: Partial<PublicClient> = {}): PublicClient {
  return {
    ClientID: 1,
    City: 'Harrison',
    StateProvince: 'Maine',
    Country: 'United States',
    Description: 'Town of Harrison',
    BannerImage: null,
    IsActive: true,
    IsProduction: true,
    AllowsImage: true,
    PictureLevel: 'Per Property',
    AllowPaymentLink: true,
    PaymentLink: 'https://pay.example.gov/harrison?acct=',
    ParcelCount: 1234,
    LastUpdated: '2025-03-14T15:00:00.000Z',
    PublishOwnerNames: true,
    OwnerNameSearch: true,
    ...over,
  };
}

export function makeRun(over: Partial<ImportRunDto> = {}): ImportRunDto {
  return {
    RunID: 10,
    ClientID: 1,
    Actor: 'provider.one',
    FileName: 'roll.jsonl',
    Status: 'validating',
    TotalRecords: 0,
    ImportedRecords: 0,
    FileBytes: null,
    BytesRead: null,
    ExpectedRecords: null,
    Indexing: false,
    ErrorCount: 0,
    Errors: [],
    Message: null,
    StartedAt: '2025-03-14T15:00:00.000Z',
    FinishedAt: null,
    Format: null,
    Mapping: null,
    SourceFiles: [over.FileName ?? 'roll.jsonl'],
    WarningCount: 0,
    Warnings: [],
    WarningFields: [],
    Adjusted: [],
    ...over,
  };
}

export function signInAs(user: User | null) {
  if (user) authStore.set(user, 'test-token-abcdefghijklmnopqrstuvwxyz');
  else authStore.clear();
}

/** Mounts the console at `url` (/admin unless given) as the app does: query client, toasts and a router. */
export function renderConsole(url = paths.providerAdmin.getHref()) {
  // react-hot-toast asks for the reduced-motion preference, which jsdom does not implement.
  if (!window.matchMedia)
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
    }));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: paths.providerAdmin.path, Component: ConsoleRoute },
      { path: paths.providerClient.path, Component: ClientRoute },
      { path: '*', element: <p>Somewhere else</p> },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...view, router };
}

/**
 * Opens a client's page from its row's Edit in the list, then the tab named `section` if given;
 * returns the page's main region.
 */
export async function openClientPage(city: string, state: string, section?: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('link', { name: `Edit ${city}, ${state}` }));
  await screen.findByRole('heading', { level: 1, name: `Settings for: ${city}` });
  if (section) await user.click(screen.getByRole('link', { name: section }));
  return screen.getByRole('main');
}
