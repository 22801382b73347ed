import { useRef, useState } from 'react';

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

  return { code, setCode, error, setError, pending, codeRef, fail, run };
}
