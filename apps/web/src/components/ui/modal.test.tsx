import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal, MODAL_EXIT_MS } from './modal';

function Harness({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open it
      </button>
      <p>Page text</p>
      <Modal
        open={open}
        title="Contact Info"
        onClose={() => {
          onClose?.();
          setOpen(false);
        }}
      >
        <label htmlFor="first">First</label>
        <input id="first" />
        <button type="button">Inside</button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  afterEach(cleanup);

  it('is a labelled modal dialog that takes focus, traps Tab, and makes the page inert', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open it' }));
    const dialog = screen.getByRole('dialog', { name: 'Contact Info' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('First'));
    // The page behind is out of reach for keyboard and screen reader users.
    expect(screen.getByText('Page text').closest('[inert]')).not.toBeNull();

    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Inside' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('First'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });

  it('closes on Escape, fades out for 150 ms, and gives focus back to its opener', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const onClose = vi.fn();
      render(<Harness onClose={onClose} />);
      const opener = screen.getByRole('button', { name: 'Open it' });
      await user.click(opener);
      await user.keyboard('{Escape}');
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(document.activeElement).toBe(opener);
      expect(screen.getByText('Page text').closest('[inert]')).toBeNull();
      // Still in the document while it fades…
      expect(document.querySelector('.usa-modal-wrapper.is-hidden')).not.toBeNull();
      act(() => {
        vi.advanceTimersByTime(MODAL_EXIT_MS + 10);
      });
      // …then gone.
      expect(document.querySelector('.usa-modal-wrapper')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes on a click on the dimmed backdrop and on the close button, not on a click inside', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Open it' }));
    await user.click(screen.getByRole('button', { name: 'Inside' }));
    expect(onClose).not.toHaveBeenCalled();
    await user.click(document.querySelector('.usa-modal-overlay')!);
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Open it' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
