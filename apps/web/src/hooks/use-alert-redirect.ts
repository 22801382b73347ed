import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';

/**
 * Spec §8: an unknown municipality or property shows an alert, then goes to the home page. Once per
 * page visit, even when React runs effects twice in development.
 */
export function useAlertRedirect(message: string | null): void {
  const navigate = useNavigate();
  const shown = useRef(false);
  useEffect(() => {
    if (!message || shown.current) return;
    shown.current = true;
    window.alert(message);
    void navigate(paths.home.getHref(), { replace: true });
  }, [message, navigate]);
}
