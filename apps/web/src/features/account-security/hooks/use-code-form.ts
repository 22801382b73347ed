import { useRef, useState } from 'react';
import { ApiError } from '@/lib/api-client';

/**
 * The state every authenticator-code form here shares: the typed code, its error, whether a request is
 * under way, and `fail`, which shows an error and puts the focus back in the field with the text
 * selected, so a person using a keyboard or a screen reader can type the next code at once.
 */
export function useCodeForm() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  const fail = (message: string) => {
    setError(message);
    requestAnimationFrame(() => {
      codeRef.current?.focus();
      codeRef.current?.select();
    });
  };

  /** Runs the request with `pending` set; the caller's handler decides what an error means. */
  const run = async (request: () => Promise<void>, onError: (err: unknown) => void) => {
    setPending(true);
    try {
      await request();
    } catch (err) {
      onError(err);
    } finally {
      setPending(false);
    }
  };

  /**
   * Sends the typed code when it is six digits (`messages.invalid` otherwise). A code the server does
   * not accept gets `messages.refused`; any other failure its own message, or `messages.failed`.
   */
  const submitAppCode = async (
    send: (digits: string) => Promise<void>,
    messages: { invalid: string; refused: string; failed: string },
  ) => {
    setError(null);
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      fail(messages.invalid);
      return;
    }
    await run(
      () => send(digits),
      (err) => {
        const refused = err instanceof ApiError && err.fields.some((f) => f.field === 'Code');
        fail(refused ? messages.refused : err instanceof Error ? err.message : messages.failed);
      },
    );
  };

  return { code, setCode, error, setError, pending, codeRef, fail, run, submitAppCode };
}
