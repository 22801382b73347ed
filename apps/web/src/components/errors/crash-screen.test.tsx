import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { recordComponentTrace } from '@/lib/component-trace';
import { CrashBoundary } from './crash-screen';

function Broken(): never {
  throw new Error('Cannot read the roll of Springfield');
}
function Page() {
  return (
    <section>
      <Broken />
    </section>
  );
}

/** The app's shape (app/router.tsx): every page under one CrashBoundary; the root reports component stacks. */
function renderBrokenPage() {
  return render(
    <CrashBoundary resetKey="/">
      <Page />
    </CrashBoundary>,
    { onCaughtError: recordComponentTrace },
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('crash screen', () => {
  it('shows "Something went wrong.", the message, Return Home and the component trace', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderBrokenPage();
    expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeTruthy();
    expect(screen.getByText('Cannot read the roll of Springfield')).toBeTruthy();
    const home = screen.getByRole('link', { name: 'Return Home' });
    expect(home.getAttribute('href')).toBe('/');
    expect(screen.getByText('Component trace')).toBeTruthy();
    // The trace names the components, innermost first.
    const trace = await screen.findByText(/at Broken[\s\S]*at section[\s\S]*at Page/);
    expect(trace.tagName).toBe('PRE');
  });

  it('leaves the trace out of production builds', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubEnv('PROD', true);
    renderBrokenPage();
    expect(await screen.findByRole('heading', { name: 'Something went wrong.' })).toBeTruthy();
    expect(screen.getByText('Cannot read the roll of Springfield')).toBeTruthy();
    expect(screen.queryByText('Component trace')).toBeNull();
    expect(screen.queryByText(/at Broken/)).toBeNull();
  });
});
