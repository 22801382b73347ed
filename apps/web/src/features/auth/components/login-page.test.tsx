import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@opp/contracts';
import { authStore } from '@/lib/auth-store';
import { LoginPage } from './login-page';

const admin: User = {
  UserId: 5,
  Username: 'tess.town',
  Email: 'tess@town.test',
  RoleID: 2,
  Manages: 7,
  TwoFactorEnabled: true,
};

const twoFactor = (message: string) => ({
  status: 401,
  body: { statusCode: 401, code: 'two_factor_required', message, error: message },
});

/** POST /api/login answered from a list, one reply per attempt; each request body is recorded. */
function fakeLogin(replies: { status: number; body: unknown }[]) {
  const bodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      const reply = replies.shift() ?? { status: 500, body: {} };
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return bodies;
}

function renderLogin() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <LoginPage heading="Testville, Maine" canUse={() => true} returnHref="/search" />,
      },
    ],
    { initialEntries: ['/'] },
  );
  return render(<RouterProvider router={router} />);
}

describe('LoginPage with two-factor sign-in', () => {
  beforeEach(() => authStore.clear());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    authStore.clear();
  });

  it('asks for the code after the password, keeps the credentials, and shows a wrong code inline', async () => {
    const bodies = fakeLogin([
      twoFactor('Enter the code from your authenticator app'),
      twoFactor('That code was not accepted; enter a current code or a recovery code'),
      { status: 200, body: { Status: 200, user: admin, accessToken: 'token-abcdefghijklmnopqrstuvwxyz' } },
    ]);
    const user = userEvent.setup();
    renderLogin();

    await user.type(screen.getByLabelText('Username'), 'tess.town');
    await user.type(screen.getByLabelText('Password'), 'secret password{Enter}');

    const step = await screen.findByRole('heading', { level: 2, name: 'Two-factor sign-in' });
    await waitFor(() => expect(document.activeElement).toBe(step));
    const code = screen.getByLabelText('Authentication code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(screen.queryByLabelText('Password')).toBeNull();

    await user.type(code, '111111{Enter}');
    expect(await screen.findByText(/That code was not accepted/)).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(bodies[1]).toEqual({ Identity: 'tess.town', Password: 'secret password', Code: '111111' });

    await user.clear(code);
    await user.type(code, '222222{Enter}');
    await waitFor(() => expect(authStore.getUserId()).toBe(5));
    expect(bodies[2]).toEqual({ Identity: 'tess.town', Password: 'secret password', Code: '222222' });
  }, 20_000);

  it('takes a recovery code instead, in a field that accepts letters', async () => {
    const bodies = fakeLogin([
      twoFactor('Enter the code from your authenticator app'),
      { status: 200, body: { Status: 200, user: admin, accessToken: 'token-abcdefghijklmnopqrstuvwxyz' } },
    ]);
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Username'), 'tess.town');
    await user.type(screen.getByLabelText('Password'), 'secret password{Enter}');
    await screen.findByRole('heading', { level: 2, name: 'Two-factor sign-in' });

    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field.getAttribute('inputmode')).toBe('text');
    await user.type(field, 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(authStore.getUserId()).toBe(5));
    expect(bodies[1]).toMatchObject({ Code: 'abcde-fghij' });
  }, 20_000);

  it('goes back to the password with Cancel, keeping the username', async () => {
    fakeLogin([twoFactor('Enter the code from your authenticator app')]);
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Username'), 'tess.town');
    await user.type(screen.getByLabelText('Password'), 'secret password{Enter}');
    await screen.findByRole('heading', { level: 2, name: 'Two-factor sign-in' });

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('tess.town');
    const heading = screen.getByRole('heading', { level: 1, name: 'Testville, Maine' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  }, 20_000);
});
