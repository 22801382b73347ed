import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Contact, PublicClient, User } from '@opp/contracts';
import { api } from '@/lib/api-client';
import { authStore } from '@/lib/auth-store';
import { Component as AdminRoute } from './admin';

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}
type Reply = { status: number; body?: unknown };
type Handler = (call: Call) => Reply;

/** Answers fetches from "METHOD /path" handlers and records every request. */
function fakeApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      const headers = new Headers(init.headers);
      const body =
        typeof init.body === 'string'
          ? JSON.parse(init.body)
          : init.body instanceof FormData
            ? Object.fromEntries(
                [...init.body.keys()].map((k) => [
                  k,
                  init.body instanceof FormData ? init.body.get(k) : null,
                ]),
              )
            : undefined;
      const call = { method, path: url.pathname, body, auth: headers.get('authorization') };
      calls.push(call);
      const handler = handlers[`${method} ${decodeURIComponent(url.pathname)}`];
      const res = handler
        ? handler(call)
        : { status: 404, body: { code: 'not_found', message: 'No such API endpoint' } };
      return new Response(res.body === undefined ? null : JSON.stringify(res.body), {
        status: res.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

const error = (statusCode: number, code: string, message: string, field?: string) => ({
  statusCode,
  code,
  message,
  error: message,
  ...(field ? { fields: [{ field, message }] } : {}),
});

const town: PublicClient = {
  ClientID: 7,
  City: 'Testville',
  StateProvince: 'Maine',
  Country: 'United States',
  Description: 'Town of Testville',
  BannerImage: null,
  IsActive: true,
  IsProduction: true,
  AllowsImage: true,
  PictureLevel: 'Per Property',
  AllowPaymentLink: false,
  PaymentLink: '',
  ParcelCount: 0,
  LastUpdated: null,
  PublishOwnerNames: true,
  OwnerNameSearch: true,
};
const boss: User = {
  UserId: 1,
  Username: 'boss',
  Email: 'boss@t.example',
  RoleID: 2,
  Manages: 7,
  TwoFactorEnabled: false,
};
const site: User = {
  UserId: 2,
  Username: 'sitey',
  Email: 'site@t.example',
  RoleID: 3,
  Manages: 7,
  TwoFactorEnabled: false,
};
const contacts: Contact[] = [
  {
    ContactID: 11,
    ClientID: 7,
    Title: 'Town Clerk',
    ContactUrl: '',
    HoursOfOperation: '',
    Telephone: '207-555-0100',
    ContactEmail: 'clerk@t.example',
    FreeFormMessage: '',
  },
  {
    ContactID: 12,
    ClientID: 7,
    Title: 'Assessor',
    ContactUrl: '',
    HoursOfOperation: '',
    Telephone: '',
    ContactEmail: '',
    FreeFormMessage: '',
  },
];

const baseHandlers = (me: User | null): Record<string, Handler> => ({
  'GET /api/client/Maine/Testville': () => ({ status: 200, body: { ClientID: 7, TokenValid: true } }),
  'GET /api/client/7': () => ({ status: 200, body: town }),
  'GET /api/contacts/7': () => ({ status: 200, body: contacts }),
  'GET /api/users/7': () => ({ status: 200, body: [boss, site] }),
  ...(me ? { [`GET /api/user/${me.UserId}`]: () => ({ status: 200, body: me }) } : {}),
  'POST /api/logout': () => ({ status: 200, body: { ok: true } }),
});

function renderAdmin(url = '/Maine/Testville/admin') {
  const router = createMemoryRouter(
    [
      { path: '/:state/:city/admin', Component: AdminRoute },
      { path: '/:state/:city/search', Component: () => <p>search page</p> },
      { path: '/', Component: () => <p>home page</p> },
    ],
    { initialEntries: [url] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

function signIn(user: User) {
  authStore.set(user, 'token-of-' + user.Username);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.spyOn(window, 'alert').mockImplementation(() => {});
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no matchMedia.
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList,
  );
});
afterEach(() => {
  cleanup();
  // Toasts live in a module-level store; one test's must not be found by the next.
  toast.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('municipality admin: login', () => {
  it('shows the town’s login page; a wrong password reads "Username or password was incorrect"', async () => {
    fakeApi({
      ...baseHandlers(null),
      'POST /api/login': () => ({
        status: 401,
        body: error(401, 'unauthorized', 'Username or password was incorrect'),
      }),
    });
    renderAdmin();
    expect(await screen.findByRole('heading', { level: 1, name: 'Testville, Maine' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Username'), 'boss');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Username or password was incorrect');
    expect(screen.getByRole('link', { name: 'Return to search' }).getAttribute('href')).toBe(
      '/Maine/Testville/search',
    );
    expect(authStore.getToken()).toBeNull();
  });

  it('refuses an admin of another town with the same message, and ends that new session', async () => {
    const stranger: User = { ...boss, UserId: 9, Username: 'stranger', Manages: 99 };
    const calls = fakeApi({
      ...baseHandlers(null),
      'POST /api/login': () => ({
        status: 200,
        body: { Status: 200, user: stranger, accessToken: 'stranger-token' },
      }),
    });
    renderAdmin();
    await userEvent.type(await screen.findByLabelText('Username'), 'stranger');
    await userEvent.type(screen.getByLabelText('Password'), 'right password{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Username or password was incorrect');
    expect(authStore.getToken()).toBeNull();
    await waitFor(() =>
      expect(calls).toContainEqual(
        expect.objectContaining({ method: 'POST', path: '/api/logout', auth: 'Bearer stranger-token' }),
      ),
    );
  });

  it('signs in, stores the login as spec §3 says, and shows the admin screen', async () => {
    fakeApi({
      ...baseHandlers(boss),
      'POST /api/login': () => ({
        status: 200,
        body: { Status: 200, user: boss, accessToken: 'boss-token' },
      }),
    });
    renderAdmin();
    await userEvent.type(await screen.findByLabelText('Username'), 'boss');
    await userEvent.type(screen.getByLabelText('Password'), 'right password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Signed in as')).toBeTruthy();
    expect(localStorage.getItem('accessToken')).toBe('"boss-token"');
    expect(localStorage.getItem('UserId')).toBe('1');
    expect(JSON.parse(sessionStorage.getItem('user')!)).toMatchObject({ Username: 'boss' });
  });

  it('an expired token shows the login page again', async () => {
    signIn(boss);
    fakeApi({
      ...baseHandlers(null),
      'GET /api/user/1': () => ({ status: 401, body: error(401, 'unauthorized', 'Sign in to continue') }),
    });
    renderAdmin();
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
    expect(authStore.getToken()).toBeNull();
  });
});

describe('municipality admin: signed in', () => {
  it('renames the town: PATCHes City and "Town of" + city, toasts, and moves to the new admin URL', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      'PATCH /api/client/7': (c) => ({ status: 200, body: { ...town, ...(c.body as object) } }),
      'GET /api/client/Maine/Harbor Town': () => ({ status: 200, body: { ClientID: 7, TokenValid: true } }),
    });
    const router = renderAdmin();
    const cityInput = await screen.findByLabelText('City/Town');
    expect((screen.getByLabelText('Title') as HTMLSelectElement).value).toBe('Town of');
    await userEvent.clear(cityInput);
    await userEvent.type(cityInput, 'Harbor Town');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Client saved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      City: 'Harbor Town',
      Description: 'Town of Harbor Town',
      BannerImage: null,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/Maine/Harbor%20Town/admin'));
  });

  it('uploads a chosen banner first, then patches the client with its name', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      'POST /api/image': () => ({
        status: 201,
        body: {
          BannerImage: 'a'.repeat(32) + '.png',
          ContentType: 'image/png',
          Width: 1,
          Height: 1,
          ByteSize: 9,
        },
      }),
      'PATCH /api/client/7': (c) => ({ status: 200, body: { ...town, ...(c.body as object) } }),
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }),
    );
    renderAdmin();
    const input = await screen.findByLabelText('Banner Image');
    await userEvent.upload(
      input,
      new File([new Uint8Array([137, 80, 78, 71])], 'banner.png', { type: 'image/png' }),
    );
    expect(screen.getByRole('img', { name: /preview/ })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Client saved');
    const order = calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    expect(order).toEqual(['POST /api/image', 'PATCH /api/client/7']);
    expect(calls[calls.findIndex((c) => c.method === 'POST')]!.body).toMatchObject({ ClientID: '7' });
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({
      BannerImage: 'a'.repeat(32) + '.png',
    });
  });

  it('refuses a .gif banner in the browser', async () => {
    signIn(boss);
    const calls = fakeApi(baseHandlers(boss));
    renderAdmin();
    const input = await screen.findByLabelText('Banner Image');
    await userEvent.upload(input, new File(['GIF89a'], 'banner.gif', { type: 'image/gif' }), {
      applyAccept: false,
    });
    expect((await screen.findByText(/Choose a PNG or JPEG image/)).textContent).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/image')).toBe(false);
  });

  it('filters contacts case-insensitively and saves a new one with the modal', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      'POST /api/contact': (c) => ({ status: 201, body: { ContactID: 13, ...(c.body as object) } }),
    });
    renderAdmin();
    const contactsSection = (await screen.findByRole('heading', { name: 'Contacts' })).closest('section')!;
    await within(contactsSection as HTMLElement).findByRole('rowheader', { name: 'Town Clerk' });
    await userEvent.type(screen.getByLabelText('Filter contacts by name or title'), 'CLERK');
    expect(within(contactsSection as HTMLElement).queryByRole('rowheader', { name: 'Assessor' })).toBeNull();
    expect(
      within(contactsSection as HTMLElement).getByRole('rowheader', { name: 'Town Clerk' }),
    ).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Info' });
    await userEvent.type(within(dialog).getByLabelText('Name/Title'), 'Tax Collector');
    await userEvent.type(within(dialog).getByLabelText('Email Address'), 'tax@t.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Contact saved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/contact')!.body).toMatchObject({
      ClientID: 7,
      Title: 'Tax Collector',
      ContactEmail: 'tax@t.example',
    });
  });

  it('shows the server’s error text in the contact modal', async () => {
    signIn(boss);
    fakeApi({
      ...baseHandlers(boss),
      'PUT /api/contact/11': () => ({
        status: 400,
        body: error(
          400,
          'validation_failed',
          'ContactEmail: Email Address is not a valid email',
          'ContactEmail',
        ),
      }),
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Town Clerk' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Info' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Email Address is not a valid email',
    );
    expect(within(dialog).getByLabelText('Email Address').getAttribute('aria-invalid')).toBe('true');
    expect(await screen.findByText('An error occured')).toBeTruthy();
  });

  it('admins: own row has no Edit/Delete; new admins are Site Administrators of this town', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      'POST /api/user': (c) => ({
        status: 201,
        body: { UserId: 5, TwoFactorEnabled: false, ...(c.body as object) },
      }),
    });
    renderAdmin();
    const admins = (await screen.findByRole('heading', { name: 'Admins' })).closest('section') as HTMLElement;
    await within(admins).findByRole('rowheader', { name: 'sitey' });
    expect(within(admins).queryByRole('button', { name: 'Edit boss' })).toBeNull();
    expect(within(admins).queryByRole('button', { name: 'Delete boss' })).toBeNull();
    expect(within(admins).getByRole('button', { name: 'Edit sitey' })).toBeTruthy();

    await userEvent.click(within(admins).getByRole('button', { name: 'Add admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Site Admin' });
    expect((within(dialog).getByLabelText('Site Administrator') as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText('Super Administrator') as HTMLInputElement).checked).toBe(false);
    await userEvent.type(within(dialog).getByLabelText('Username'), 'newbie');
    await userEvent.type(within(dialog).getByLabelText('Email Address'), 'newbie@t.example');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'twelve chars ok');
    await userEvent.type(within(dialog).getByLabelText('Confirm Password'), 'twelve chars NO');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(
      await screen.findByText('Passwords do not match', { selector: '[role="status"] *, [role="status"]' }),
    ).toBeTruthy();
    // Said inside the dialog too, where a screen reader can reach it while the page behind is inert.
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Passwords do not match');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/user')).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText('Confirm Password'));
    await userEvent.type(within(dialog).getByLabelText('Confirm Password'), 'twelve chars ok');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Admin saved')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/user')!.body).toEqual({
      UserId: null,
      Username: 'newbie',
      Email: 'newbie@t.example',
      RoleID: 3,
      Manages: 7,
      Password: 'twelve chars ok',
    });
  });

  it('editing an admin sends no password when none is typed, and the checkboxes set the role', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      'PUT /api/user/2': (c) => ({ status: 200, body: { ...site, ...(c.body as object) } }),
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit sitey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Site Admin' });
    await userEvent.click(within(dialog).getByLabelText('Site Administrator'));
    expect((within(dialog).getByLabelText('Site Administrator') as HTMLInputElement).checked).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    await screen.findByText('Admin saved');
    const body = calls.find((c) => c.method === 'PUT')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ UserId: 2, RoleID: 4, Manages: 7 });
    expect('Password' in body).toBe(false);
  });

  it('shows the server’s error in the admin modal (e.g. a taken username)', async () => {
    signIn(boss);
    fakeApi({
      ...baseHandlers(boss),
      'POST /api/user': () => ({
        status: 409,
        body: error(409, 'conflict', 'That username is already taken', 'Username'),
      }),
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Add admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Site Admin' });
    await userEvent.type(within(dialog).getByLabelText('Username'), 'sitey');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'That username is already taken',
    );
  });

  it('deletes a contact after confirmation', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      'DELETE /api/contact/12': () => ({ status: 200, body: { ok: true } }),
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Assessor' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete contact?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Contact deleted')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/contact/12')).toBe(true);
  });

  it('the Super Administrator sees the owner privacy settings, read-only (issue 39)', async () => {
    signIn(boss);
    fakeApi({
      ...baseHandlers(boss),
      'GET /api/client/7': () => ({ status: 200, body: { ...town, PublishOwnerNames: false } }),
    });
    renderAdmin();
    const heading = await screen.findByRole('heading', { name: 'Owner privacy' });
    const section = heading.closest('section') as HTMLElement;
    expect(within(section).getByText(/^Withheld: no owner name or mailing address/)).toBeTruthy();
    expect(within(section).getByText(/^Off: searching for an owner’s name finds nothing/)).toBeTruthy();
    expect(within(section).queryByRole('radio')).toBeNull();
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('a Site Administrator sees no Admins list and never asks for it', async () => {
    signIn(site);
    const calls = fakeApi(baseHandlers(site));
    renderAdmin();
    await screen.findByRole('heading', { name: 'Contacts' });
    expect(screen.queryByRole('heading', { name: 'Admins' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Owner privacy' })).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/api/users/'))).toBe(false);
  });

  it('Log out ends the session and shows the login page', async () => {
    signIn(boss);
    const calls = fakeApi(baseHandlers(boss));
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
    expect(calls).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/api/logout', auth: 'Bearer token-of-boss' }),
    );
    expect(localStorage.getItem('accessToken')).toBe('null');
  });
});

describe('municipality admin: a session that expires while a dialog is open', () => {
  const expired = () => ({ status: 401, body: error(401, 'unauthorized', 'Sign in to continue') });

  /** Answers `path` with 401 while `token-of-boss` (the expired session) is sent, `ok` with the new one. */
  const expiresOnce =
    (ok: (c: Call) => Reply): Handler =>
    (c) =>
      c.auth === 'Bearer token-of-boss' ? expired() : ok(c);

  async function signInAgain() {
    expect(await screen.findByText(/Your session expired; sign in to save/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.type(screen.getByLabelText('Username'), 'boss');
    await userEvent.type(screen.getByLabelText('Password'), 'right password{Enter}');
  }

  const loginHandler: Record<string, Handler> = {
    'POST /api/login': () => ({ status: 200, body: { Status: 200, user: boss, accessToken: 'new-token' } }),
  };

  it('the contact dialog keeps what was typed and saves it after signing in again', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      ...loginHandler,
      'PUT /api/contact/11': expiresOnce((c) => ({
        status: 200,
        body: { ...contacts[0], ...(c.body as object) },
      })),
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Town Clerk' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Info' });
    await userEvent.clear(within(dialog).getByLabelText('Phone Number'));
    await userEvent.type(within(dialog).getByLabelText('Phone Number'), '207-555-0199');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));

    await signInAgain();
    expect(await screen.findByText('Contact saved')).toBeTruthy();
    const puts = calls.filter((c) => c.method === 'PUT' && c.path === '/api/contact/11');
    expect(puts.map((c) => c.auth)).toEqual(['Bearer token-of-boss', 'Bearer new-token']);
    expect(puts[1]!.body).toMatchObject({ Title: 'Town Clerk', Telephone: '207-555-0199' });
    // Saved, the dialog closes as after any save.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contact Info' })).toBeNull());
  });

  it('a contact dialog open but not yet saved comes back with what was typed, unsaved', async () => {
    signIn(boss);
    let ended = false;
    const calls = fakeApi({
      ...baseHandlers(boss),
      ...loginHandler,
      // The session ends on the server (the idle limit) once the dialog has something typed in it.
      'GET /api/contacts/7': (c) =>
        ended ? expiresOnce(() => ({ status: 200, body: contacts }))(c) : { status: 200, body: contacts },
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Info' });
    await userEvent.type(within(dialog).getByLabelText('Name/Title'), 'Tax Collector');
    // Any call the expired session makes ends it: here the contacts being fetched again in the background.
    ended = true;
    await act(() => api('GET', '/api/contacts/7').catch(() => undefined));

    await signInAgain();
    const back = await screen.findByRole('dialog', { name: 'Contact Info' });
    expect((within(back).getByLabelText('Name/Title') as HTMLInputElement).value).toBe('Tax Collector');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/contact')).toBe(false);
  });

  it('the admin dialog keeps what was typed (both passwords too) and saves it after signing in again', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      ...loginHandler,
      'POST /api/user': expiresOnce((c) => ({
        status: 201,
        body: { ...site, UserId: 5, ...(c.body as object) },
      })),
    });
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Add admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Site Admin' });
    await userEvent.type(within(dialog).getByLabelText('Username'), 'newbie');
    await userEvent.type(within(dialog).getByLabelText('Email Address'), 'newbie@t.example');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'twelve chars ok');
    await userEvent.type(within(dialog).getByLabelText('Confirm Password'), 'twelve chars ok');
    await userEvent.click(within(dialog).getByLabelText('Super Administrator'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));

    await signInAgain();
    expect(await screen.findByText('Admin saved')).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST' && c.path === '/api/user');
    expect(posts.map((c) => c.auth)).toEqual(['Bearer token-of-boss', 'Bearer new-token']);
    expect(posts[1]!.body).toEqual({
      UserId: null,
      Username: 'newbie',
      Email: 'newbie@t.example',
      RoleID: 2,
      Manages: 7,
      Password: 'twelve chars ok',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Site Admin' })).toBeNull());
  });

  it('the Municipality form keeps what was typed and saves it after signing in again', async () => {
    signIn(boss);
    const calls = fakeApi({
      ...baseHandlers(boss),
      ...loginHandler,
      'PATCH /api/client/7': expiresOnce((c) => ({ status: 200, body: { ...town, ...(c.body as object) } })),
      'GET /api/client/Maine/Testville Village': () => ({
        status: 200,
        body: { ClientID: 7, TokenValid: true },
      }),
    });
    renderAdmin();
    const cityInput = await screen.findByLabelText('City/Town');
    await userEvent.type(cityInput, ' Village');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await signInAgain();
    expect(await screen.findByText('Client saved')).toBeTruthy();
    const patches = calls.filter((c) => c.method === 'PATCH');
    expect(patches.map((c) => c.auth)).toEqual(['Bearer token-of-boss', 'Bearer new-token']);
    expect(patches[1]!.body).toMatchObject({ City: 'Testville Village' });
  });
});
