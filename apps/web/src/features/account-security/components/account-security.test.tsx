import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TwoFactorStatus, User } from '@opp/contracts';
import { authStore } from '@/lib/auth-store';
import { AccountSecurity } from './account-security';

const admin: User = {
  UserId: 9,
  Username: 'pat.provider',
  Email: 'pat@provider.test',
  RoleID: 1,
  Manages: null,
  TwoFactorEnabled: true,
};

const NEW_CODES = Array.from({ length: 10 }, (_, i) => `newc${i}-abcde`);

/**
 * The two-factor API in memory: the status (recovery codes left follows replacements), and
 * POST /api/two-factor/recovery-codes answering from a list; every POST body is recorded.
 */
function fakeApi(status: TwoFactorStatus, replies: { status: number; body: unknown }[]) {
  const posted: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const json = (code: number, body: unknown) =>
        new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
      const url = String(input);
      if (url.endsWith('/api/two-factor') && (init.method ?? 'GET') === 'GET') return json(200, status);
      if (url.endsWith('/api/two-factor/recovery-codes') && init.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        const reply = replies.shift() ?? { status: 500, body: {} };
        if (reply.status === 200) status = { ...status, RecoveryCodesLeft: 10 };
        return json(reply.status, reply.body);
      }
      return json(404, { statusCode: 404, code: 'not_found', message: 'Not found', error: 'Not Found' });
    }),
  );
  return posted;
}

function renderPage() {
  const router = createMemoryRouter(
    [
      {
        path: '/admin/security',
        element: (
          <AccountSecurity user={admin} issuer="Acme" next={null} backHref="/admin" backLabel="Back" />
        ),
      },
    ],
    { initialEntries: ['/admin/security'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('AccountSecurity: new recovery codes', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    authStore.clear();
  });

  it('lets an admin who must keep two-factor on replace their codes with a code from the app', async () => {
    const posted = fakeApi({ Enabled: true, Pending: false, RecoveryCodesLeft: 2, Required: true }, [
      {
        status: 400,
        body: {
          statusCode: 400,
          code: 'validation_failed',
          message: 'Code: that code was not accepted',
          error: 'Bad Request',
          fields: [{ field: 'Code', message: 'that code was not accepted' }],
        },
      },
      { status: 200, body: { RecoveryCodes: NEW_CODES } },
    ]);
    const user = userEvent.setup();
    renderPage();

    await screen.findByText(/Few recovery codes are left\. Get new ones below/);
    expect(screen.queryByRole('button', { name: 'Turn off two-factor sign-in' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Get new recovery codes' }));
    const heading = await screen.findByRole('heading', { level: 2, name: 'Get new recovery codes' });
    await waitFor(() => expect(document.activeElement).toBe(heading));

    const field = screen.getByLabelText('Authentication code');
    const submit = screen.getByRole('button', { name: 'Get new recovery codes' });
    // A recovery code is turned away before anything is sent.
    await user.type(field, 'abcde-fghij');
    await user.click(submit);
    await screen.findByText(/a recovery code cannot be used here/);
    expect(posted).toEqual([]);

    await user.clear(field);
    await user.type(field, '123 456');
    await user.click(submit);
    await screen.findByText(/That code was not accepted/);
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await user.clear(field);
    await user.type(field, '654321');
    await user.click(submit);
    await screen.findByText(/Your old recovery codes no longer work/);
    expect(posted).toEqual([{ Code: '123456' }, { Code: '654321' }]);
    const list = screen.getByRole('list', { name: 'Recovery codes' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(NEW_CODES);

    // Shown once: leaving asks for the confirmation first, then the status shows the new count.
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await screen.findByText('Confirm that you have saved your recovery codes');
    await user.click(screen.getByLabelText('I have saved my recovery codes somewhere safe'));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await screen.findByText('You have new recovery codes; the old ones no longer work.');
    await waitFor(() =>
      expect(document.querySelector('.opp-security-status')?.textContent).toBe(
        'StatusOnRecovery codes left10',
      ),
    );
  });
});
