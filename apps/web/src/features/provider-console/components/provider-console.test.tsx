import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { User } from '@opp/contracts';
import { authStore } from '@/lib/auth-store';
import {
  errorBody,
  fakeApi,
  makeClient,
  openClientPage,
  provider,
  renderConsole,
  signInAs,
  type Call,
} from '../testing/console-test-kit';

const PROVIDER_NAME = 'Acme Records';

const clients = [
  makeClient({ ClientID: 7, City: 'york', StateProvince: 'Maine', ParcelCount: 50, IsProduction: false }),
  makeClient({ ClientID: 3, City: 'Augusta', StateProvince: 'Maine', ParcelCount: 12345 }),
  makeClient({
    ClientID: 5,
    City: 'Hanover',
    StateProvince: 'New Hampshire',
    ParcelCount: 0,
    LastUpdated: null,
    IsActive: false,
  }),
];
const admins: User[] = [
  { ...provider, UserId: 2, Username: 'zoe', Email: 'zoe@provider.test' },
  provider,
  { ...provider, UserId: 4, Username: 'Mike', Email: 'mike@provider.test' },
];

function baseApi(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/config': () => ({ status: 200, body: { providerName: PROVIDER_NAME } }),
    'GET /api/user/1': () => ({ status: 200, body: provider }),
    'GET /api/clients': () => ({ status: 200, body: clients }),
    'GET /api/users/role/1': () => ({ status: 200, body: admins }),
    'GET /api/contacts/3': () => ({
      status: 200,
      body: [
        {
          ContactID: 1,
          ClientID: 3,
          Title: 'Assessor',
          ContactUrl: '',
          HoursOfOperation: '',
          Telephone: '207-555-0100',
          ContactEmail: 'assessor@augusta.test',
          FreeFormMessage: '',
        },
      ],
    }),
    'GET /api/rolls/3': () => ({ status: 200, body: [] }),
    ...extra,
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  toast.remove();
  vi.unstubAllGlobals();
});

const user = () => userEvent.setup();

describe('who sees the console', () => {
  it('shows the login page in provider mode, with the configured name, when nobody is signed in', async () => {
    baseApi();
    signInAs(null);
    renderConsole();
    expect(
      await screen.findByRole('heading', { level: 1, name: `${PROVIDER_NAME} Admin Login` }),
    ).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to search' }).getAttribute('href')).toBe('/');
  });

  it('shows the login page to a signed-in municipality admin', async () => {
    baseApi();
    signInAs({ ...provider, UserId: 9, RoleID: 2, Manages: 3 });
    renderConsole();
    expect(await screen.findByRole('heading', { name: `${PROVIDER_NAME} Admin Login` })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Clients' })).toBeNull();
  });

  it('refuses a non-provider login with the spec message and stores nothing', async () => {
    baseApi({
      'POST /api/login': () => ({
        status: 200,
        body: { Status: 200, user: { ...provider, RoleID: 3, Manages: 3 }, accessToken: 'x'.repeat(43) },
      }),
    });
    signInAs(null);
    renderConsole();
    await user().type(await screen.findByLabelText('Username'), 'clerk');
    await user().type(screen.getByLabelText('Password'), 'a long enough password{Enter}');
    expect(await screen.findByText('Username or password was incorrect')).toBeTruthy();
    expect(authStore.getToken()).toBeNull();
  });

  it('signs a provider admin in, shows the own header, and signs out with Log out', async () => {
    const api = baseApi({
      'POST /api/login': () => ({
        status: 200,
        body: { Status: 200, user: provider, accessToken: 'tok'.repeat(15) },
      }),
      'POST /api/logout': () => ({ status: 200, body: { ok: true } }),
    });
    signInAs(null);
    renderConsole();
    await user().type(await screen.findByLabelText('Username'), 'provider.one');
    await user().type(screen.getByLabelText('Password'), 'a long enough password{Enter}');
    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('link', { name: PROVIDER_NAME }).getAttribute('href')).toBe('/');
    expect(within(header).getByText('provider.one')).toBeTruthy();
    expect(authStore.getToken()).toBe('tok'.repeat(15));

    await user().click(within(header).getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: `${PROVIDER_NAME} Admin Login` })).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/logout')).toBe(true);
    expect(authStore.getToken()).toBeNull();
    expect(authStore.getUserId()).toBeNull();
  });

  it('a 401 while loading signs the user out', async () => {
    baseApi({
      'GET /api/users/role/1': () => ({
        status: 401,
        body: errorBody(401, 'unauthorized', 'Sign in to continue'),
      }),
    });
    signInAs(provider);
    renderConsole();
    expect(await screen.findByRole('heading', { name: `${PROVIDER_NAME} Admin Login` })).toBeTruthy();
    expect(authStore.getToken()).toBeNull();
  });
});

describe('client list', () => {
  it('lists Client, ID, Parcels and Date Last Updated (en-US, MM/DD/YYYY), sorted by City, and filters', async () => {
    baseApi();
    signInAs(provider);
    renderConsole();
    const table = await screen.findByRole('table', { name: /Clients, sorted by City/ });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 4)).toEqual(['Client', 'ID', 'Parcels', 'Date Last Updated']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Augusta, ME',
      'Hanover, NHInactive',
      'york, METest',
    ]);
    expect(within(rows[0]!).getByText('12,345')).toBeTruthy();
    expect(
      within(rows[0]!).getByText(
        new Date('2025-03-14T15:00:00.000Z').toLocaleDateString('en-US', {
          month: '2-digit',
          day: '2-digit',
          year: 'numeric',
        }),
      ),
    ).toBeTruthy();
    // Edit leads to the client's own page.
    expect(within(rows[0]!).getByRole('link', { name: 'Edit Augusta, Maine' }).getAttribute('href')).toBe(
      '/admin/clients/3',
    );

    await user().type(screen.getByLabelText('Filter clients'), 'nh');
    const filtered = within(table).getAllByRole('row').slice(1);
    expect(filtered).toHaveLength(1);
    expect(filtered[0]!.textContent).toContain('Hanover');
    expect(screen.getByRole('status', { name: '' }).textContent ?? '').toBeDefined();
    expect(screen.getByText('Showing 1 of 3 clients')).toBeTruthy();
  });
});

describe('client creation modal', () => {
  async function openCreate() {
    await user().click(await screen.findByRole('button', { name: 'Add a client' }));
    return screen.findByRole('dialog', { name: 'Please enter the client Information' });
  }

  it('starts from the §4 defaults and shows the three required-field messages by their fields', async () => {
    const api = baseApi();
    signInAs(provider);
    renderConsole();
    const dialog = await openCreate();
    expect((within(dialog).getByRole('radio', { name: 'Active' }) as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByRole('radio', { name: 'Test' }) as HTMLInputElement).checked).toBe(true);
    const [imageAllows, payAllows] = within(dialog).getAllByRole('radio', {
      name: 'Allows',
    }) as HTMLInputElement[];
    expect(imageAllows!.checked).toBe(true);
    expect(payAllows!.checked).toBe(true);
    expect((within(dialog).getByLabelText('Picture Level') as HTMLInputElement).value).toBe('Per Property');

    await user().clear(within(dialog).getByLabelText(/^Country/));
    await user().click(within(dialog).getByRole('button', { name: 'Add' }));
    const city = within(dialog).getByLabelText(/^Client Name/);
    expect(city.getAttribute('aria-invalid')).toBe('true');
    expect(city.getAttribute('aria-describedby')).toContain('error');
    expect(within(dialog).getByText('Client Name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Country is required.')).toBeTruthy();
    expect(within(dialog).getByText('State/Province is required.')).toBeTruthy();
    // Focus moves to the first field with a message.
    expect(document.activeElement).toBe(city);
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('Deny disables and clears Picture Level and Payment Link; Allows enables them again', async () => {
    baseApi();
    signInAs(provider);
    renderConsole();
    const dialog = await openCreate();
    const payLink = within(dialog).getByLabelText('Payment Link') as HTMLInputElement;
    await user().type(payLink, 'pay.town.gov');
    const [imageDeny, payDeny] = within(dialog).getAllByRole('radio', { name: 'Deny' });
    await user().click(imageDeny!);
    await user().click(payDeny!);
    const picture = within(dialog).getByLabelText('Picture Level') as HTMLInputElement;
    expect(picture.disabled).toBe(true);
    expect(picture.value).toBe('');
    expect(payLink.disabled).toBe(true);
    expect(payLink.value).toBe('');
    const [, payAllows] = within(dialog).getAllByRole('radio', { name: 'Allows' });
    await user().click(payAllows!);
    expect(payLink.disabled).toBe(false);
  });

  it('adds the client with every field, toasts Client Added and closes', async () => {
    const api = baseApi({
      'POST /api/client': (call) => ({
        status: 201,
        body: makeClient({ ClientID: 99, City: String((call.body as { City: string }).City) }),
      }),
    });
    signInAs(provider);
    renderConsole();
    const dialog = await openCreate();
    await user().type(within(dialog).getByLabelText(/^Client Name/), 'Bethel');
    await user().type(within(dialog).getByLabelText(/^State\/Province/), 'Maine');
    await user().click(within(dialog).getByRole('radio', { name: 'Inactive' }));
    await user().click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Client Added')).toBeTruthy();
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/client')!;
    expect(post.body).toEqual({
      City: 'Bethel',
      Country: 'United States',
      StateProvince: 'Maine',
      Description: '',
      IsActive: false,
      IsProduction: false,
      AllowsImage: true,
      PictureLevel: 'Per Property',
      AllowPaymentLink: true,
      PaymentLink: '',
      PublishOwnerNames: true,
      OwnerNameSearch: true,
    });
    expect(post.auth).toMatch(/^Bearer /);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's refusal by the field and toasts An error occured", async () => {
    baseApi({
      'POST /api/client': () => ({
        status: 409,
        body: errorBody(409, 'conflict', 'A client named Augusta already exists in Maine.', [
          { field: 'City', message: 'A client named Augusta already exists in Maine.' },
        ]),
      }),
    });
    signInAs(provider);
    renderConsole();
    const dialog = await openCreate();
    await user().type(within(dialog).getByLabelText(/^Client Name/), 'Augusta');
    await user().type(within(dialog).getByLabelText(/^State\/Province/), 'ME');
    await user().click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('An error occured')).toBeTruthy();
    expect(within(dialog).getByText('A client named Augusta already exists in Maine.')).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/^Client Name/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('a client’s page', () => {
  const openSettings = (section?: string) => openClientPage('Augusta', 'Maine', section);

  it('is prefilled, and Update sends the fields and toasts Client saved; contacts and history have their own tabs', async () => {
    const api = baseApi({
      'PATCH /api/client/3': () => ({ status: 200, body: makeClient({ ClientID: 3, City: 'Augusta' }) }),
    });
    signInAs(provider);
    const { router } = renderConsole();
    const page = await openSettings();
    // A page of its own, not a dialog over the list.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin/clients/3');
    expect((within(page).getByLabelText(/^Client Name/) as HTMLInputElement).value).toBe('Augusta');
    expect((within(page).getByLabelText('Payment Link') as HTMLInputElement).value).toBe(
      'https://pay.example.gov/harrison?acct=',
    );
    expect((within(page).getByRole('radio', { name: 'Production' }) as HTMLInputElement).checked).toBe(true);

    const [imageDeny] = within(page).getAllByRole('radio', { name: 'Deny' });
    await user().click(imageDeny!);
    expect((within(page).getByLabelText('Picture Level') as HTMLInputElement).value).toBe('');
    await user().click(within(page).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Client saved')).toBeTruthy();
    const patch = api.calls.find((c) => c.method === 'PATCH')!;
    expect(patch.body).toMatchObject({ City: 'Augusta', AllowsImage: false, PictureLevel: '' });

    await user().click(within(page).getByRole('link', { name: 'Contacts' }));
    expect(await within(page).findByText('Assessor')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/clients/3/contacts');
    await user().click(within(page).getByRole('link', { name: 'Roll publishing' }));
    expect(await within(page).findByText('No roll has been published for this client yet.')).toBeTruthy();
  });

  it('has an address of its own for each tab: opened directly, Back and the breadcrumb return', async () => {
    baseApi();
    signInAs(provider);
    const { router } = renderConsole('/admin/clients/3/roll');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings for: Augusta' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Publish roll' })).toBeTruthy();
    const tabs = screen.getByRole('navigation', { name: 'Settings for Augusta' });
    expect(within(tabs).getByRole('link', { name: 'Roll publishing' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(tabs).getByRole('link', { name: 'Details' }).getAttribute('href')).toBe('/admin/clients/3');
    await user().click(within(tabs).getByRole('link', { name: 'Parcel layer' }));
    expect(await screen.findByRole('heading', { name: 'Parcel layer' })).toBeTruthy();
    // Focus stays on the tab that was chosen (the page is the same one).
    expect(document.activeElement).toBe(within(tabs).getByRole('link', { name: 'Parcel layer' }));
    await router.navigate(-1);
    expect(await screen.findByRole('heading', { name: 'Publish roll' })).toBeTruthy();
    await user().click(
      within(screen.getByRole('navigation', { name: 'Breadcrumbs' })).getByRole('link', {
        name: 'Provider console',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Provider console' })).toBeTruthy();
  });

  it('says so for a client that does not exist, and an unknown tab shows the first', async () => {
    baseApi();
    signInAs(provider);
    const { router } = renderConsole('/admin/clients/99');
    expect(await screen.findByRole('heading', { level: 1, name: 'No such client' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the list of clients' })).toBeTruthy();
    await router.navigate('/admin/clients/3/nonsense');
    expect(await screen.findByRole('button', { name: 'Update' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/clients/3');
  });

  it('withholds owner names (issue 39): name search is then off too, and Update sends both', async () => {
    const api = baseApi({
      'PATCH /api/client/3': () => ({
        status: 200,
        body: makeClient({ ClientID: 3, City: 'Augusta', PublishOwnerNames: false }),
      }),
    });
    signInAs(provider);
    renderConsole();
    const page = await openSettings();
    const owners = within(page).getByRole('group', { name: 'Owner names' });
    const search = within(page).getByRole('group', { name: 'Owner name search' });
    expect((within(owners).getByRole('radio', { name: 'Publish' }) as HTMLInputElement).checked).toBe(true);
    expect((within(search).getByRole('radio', { name: 'Allow' }) as HTMLInputElement).checked).toBe(true);
    await user().click(within(owners).getByRole('radio', { name: 'Withhold' }));
    expect((within(search).getByRole('radio', { name: 'Allow' }) as HTMLInputElement).disabled).toBe(true);
    await user().click(within(page).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Client saved')).toBeTruthy();
    const patch = api.calls.find((c) => c.method === 'PATCH')!;
    expect(patch.body).toMatchObject({ PublishOwnerNames: false, OwnerNameSearch: true });
  });

  it('a 401 on Update toasts Session Expired and signs out', async () => {
    baseApi({
      'PATCH /api/client/3': () => ({
        status: 401,
        body: errorBody(401, 'unauthorized', 'Sign in to continue'),
      }),
    });
    signInAs(provider);
    renderConsole();
    const page = await openSettings();
    await user().click(within(page).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Session Expired')).toBeTruthy();
    expect(authStore.getToken()).toBeNull();
    expect(await screen.findByRole('heading', { name: `${PROVIDER_NAME} Admin Login` })).toBeTruthy();
  });

  it('deletes only after a confirmation naming the client, then toasts Client deleted and shows the list', async () => {
    const api = baseApi({
      'DELETE /api/client/3': () => ({
        status: 200,
        body: { ok: true, deleted: { properties: 1, contacts: 1, images: 0, admins: 0 } },
      }),
    });
    signInAs(provider);
    const { router } = renderConsole();
    const page = await openSettings();
    // Its button says what it does in words, in a section of its own, not beside Update.
    const remove = within(page).getByRole('button', { name: 'Delete Augusta' });
    expect(remove.textContent).toBe('Delete Augusta');
    expect(remove.closest('form')).toBeNull();
    expect(within(remove.closest('section')!).queryByRole('button', { name: 'Update' })).toBeNull();
    await user().click(remove);
    const confirm = await screen.findByRole('dialog', { name: 'Delete Augusta, Maine?' });
    expect(confirm.textContent).toContain('12,345');
    // Cancel keeps everything.
    await user().click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Augusta, Maine?' })).toBeNull());
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user().click(within(page).getByRole('button', { name: 'Delete Augusta' }));
    const again = await screen.findByRole('dialog', { name: 'Delete Augusta, Maine?' });
    await user().click(within(again).getByRole('button', { name: 'Delete Augusta' }));
    expect(await screen.findByText('Client deleted')).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c: Call) => c.path)).toEqual([
      '/api/client/3',
    ]);
    // The client's page is gone with it: the list takes its place.
    expect(await screen.findByRole('heading', { level: 1, name: 'Provider console' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin');
  });
});

describe('provider administrators', () => {
  it('lists usernames sorted; the modal says Add or Update; saves and toasts Admin saved', async () => {
    const api = baseApi({
      'POST /api/user': () => ({ status: 201, body: { ...provider, UserId: 8, Username: 'newbie' } }),
      'PUT /api/user/4': () => ({ status: 200, body: { ...provider, UserId: 4, Username: 'Mike2' } }),
    });
    signInAs(provider);
    renderConsole();
    const table = await screen.findByRole('table', { name: /Provider administrators/ });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.firstChild?.textContent),
    ).toEqual(['Mike', 'provider.one', 'zoe']);
    expect(within(table).getByText('mike@provider.test')).toBeTruthy();

    await user().click(screen.getByRole('button', { name: 'Add a provider administrator' }));
    let dialog = await screen.findByRole('dialog', { name: `${PROVIDER_NAME} Admin` });
    expect(within(dialog).getByRole('button', { name: 'Add' })).toBeTruthy();
    await user().type(within(dialog).getByLabelText('Name'), 'newbie');
    await user().type(within(dialog).getByLabelText('Email'), 'newbie@provider.test');
    await user().type(within(dialog).getByLabelText('New Password'), 'correct horse battery');
    await user().type(within(dialog).getByLabelText('Confirm Password'), 'correct horse batterY');
    await user().click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      within(dialog).getByText('Passwords do not match', { selector: '.usa-error-message' }),
    ).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/user')).toBe(false);

    await user().clear(within(dialog).getByLabelText('Confirm Password'));
    await user().type(within(dialog).getByLabelText('Confirm Password'), 'correct horse battery');
    await user().click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Admin saved')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/user')!.body).toEqual({
      UserId: null,
      Username: 'newbie',
      Email: 'newbie@provider.test',
      RoleID: 1,
      Manages: null,
      Password: 'correct horse battery',
    });

    await user().click(screen.getByRole('button', { name: 'Edit Mike' }));
    dialog = await screen.findByRole('dialog', { name: `${PROVIDER_NAME} Admin` });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Mike');
    await user().clear(within(dialog).getByLabelText('Name'));
    await user().type(within(dialog).getByLabelText('Name'), 'Mike2');
    await user().click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    // An edit without a new password keeps the old one: no Password is sent.
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      UserId: 4,
      Username: 'Mike2',
      Email: 'mike@provider.test',
      RoleID: 1,
      Manages: null,
    });
  });

  it("shows the server's validation messages in the form", async () => {
    baseApi({
      'POST /api/user': () => ({
        status: 400,
        body: errorBody(400, 'validation_failed', 'Password: Password must be at least 12 characters', [
          { field: 'Password', message: 'Password must be at least 12 characters' },
        ]),
      }),
    });
    signInAs(provider);
    renderConsole();
    await user().click(await screen.findByRole('button', { name: 'Add a provider administrator' }));
    const dialog = await screen.findByRole('dialog', { name: `${PROVIDER_NAME} Admin` });
    await user().type(within(dialog).getByLabelText('Name'), 'shorty');
    await user().type(within(dialog).getByLabelText('Email'), 'shorty@provider.test');
    await user().type(within(dialog).getByLabelText('New Password'), 'short');
    await user().type(within(dialog).getByLabelText('Confirm Password'), 'short');
    await user().click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Password must be at least 12 characters')).toBeTruthy();
    expect(within(dialog).getByLabelText('New Password').getAttribute('aria-invalid')).toBe('true');
    expect(await screen.findByText('An error occured')).toBeTruthy();
  });

  it('asks for your current password and code when you edit yourself, and shows their refusal (issue 37)', async () => {
    const me: User = { ...provider, TwoFactorEnabled: true };
    const api = baseApi({
      'GET /api/user/1': () => ({ status: 200, body: me }),
      'GET /api/users/role/1': () => ({ status: 200, body: [me] }),
      'PUT /api/user/1': () => ({
        status: 400,
        body: errorBody(400, 'validation_failed', 'CurrentPassword: your current password was not accepted', [
          { field: 'CurrentPassword', message: 'your current password was not accepted' },
        ]),
      }),
    });
    signInAs(me);
    renderConsole();
    await user().click(await screen.findByRole('button', { name: `Edit ${me.Username}` }));
    const dialog = await screen.findByRole('dialog', { name: `${PROVIDER_NAME} Admin` });
    await user().clear(within(dialog).getByLabelText('Email'));
    await user().type(within(dialog).getByLabelText('Email'), 'new@provider.test');
    await user().type(within(dialog).getByLabelText('Current Password'), 'wrong password');
    await user().type(within(dialog).getByLabelText('Authenticator Code'), '123456');
    await user().click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText('your current password was not accepted')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toMatchObject({
      Email: 'new@provider.test',
      CurrentPassword: 'wrong password',
      Code: '123456',
    });
  });

  it('does not ask for a current password when you edit someone else', async () => {
    baseApi();
    signInAs(provider);
    renderConsole();
    await user().click(await screen.findByRole('button', { name: 'Edit Mike' }));
    const dialog = await screen.findByRole('dialog', { name: `${PROVIDER_NAME} Admin` });
    expect(within(dialog).queryByLabelText('Current Password')).toBeNull();
    expect(within(dialog).queryByLabelText('Authenticator Code')).toBeNull();
  });
});
