import { useEffect, useRef, useState } from 'react';
import { matchPath, useLocation } from 'react-router';
import { paths } from '@/config/paths';

/** How long after a move the new page's heading is waited for (its record may still be loading). */
const WAIT_MS = 10_000;

/**
 * Addresses that show one screen, so moving between them is no new page: the town and search addresses
 * of one town, and the tabs of one client's page in the provider console (focus stays on the tab).
 */
function screenOf(pathname: string): string | null {
  const client = matchPath(paths.providerClient.path, pathname);
  if (client) return `client:${client.params.clientId}`;
  const m = matchPath(paths.search.path, pathname) ?? matchPath(paths.town.path, pathname);
  return m ? `${m.params.state}/${m.params.city}`.toLowerCase() : null;
}

/** What takes focus on a page: a town's search box on its own page, else the main heading. */
function focusTarget(pathname: string): HTMLElement | null {
  const main = document.getElementById('main-content');
  // The placeholder shown while a page's chunk loads is busy, with no heading yet.
  if (!main || main.getAttribute('aria-busy') === 'true') return null;
  if (matchPath(paths.town.path, pathname))
    return main.querySelector<HTMLElement>('input.opp-searchbar__input');
  return main.querySelector<HTMLElement>('h1');
}

/**
 * After a move to another page (home → town, results → record, Next, Previous), focus goes to the new
 * page's main heading (a town's own page: its search box) once it is shown, and the heading is
 * announced: a screen reader user hears where they are, and Tab goes on from the top of the new page
 * (WCAG 2.4.3). Not on the first page, whose focus the browser and the painted page own, and never
 * once the visitor has pressed a key or clicked, or focus was put elsewhere, on the new page.
 * Returns the text for a polite live region.
 */
export function useRouteFocus(): string {
  const { pathname } = useLocation();
  const previous = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const from = previous.current;
    previous.current = pathname;
    if (from === null || from === pathname) return;
    const screen = screenOf(pathname);
    if (screen !== null && screen === screenOf(from)) return;

    // Until the visitor acts: a heading replaced or rewritten as the record arrives is focused and
    // announced anew (the old record's heading may be shown for a moment).
    let placed: Element | null = null;
    const place = () => {
      const target = focusTarget(pathname);
      if (!target) return;
      if (document.activeElement !== target) {
        if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        placed = target;
        target.focus({ preventScroll: true });
      }
      const heading = document.querySelector('#main-content h1')?.textContent?.trim();
      setAnnouncement(heading || document.title);
    };
    const observer = new MutationObserver(place);
    // Focus put elsewhere (by the visitor, or by the page itself) is left there.
    const focusedElsewhere = (e: FocusEvent) => {
      if (e.target !== placed) stop();
    };
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      window.removeEventListener('keydown', stop, true);
      window.removeEventListener('pointerdown', stop, true);
      window.removeEventListener('focusin', focusedElsewhere, true);
    };
    const timer = window.setTimeout(stop, WAIT_MS);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener('keydown', stop, true);
    window.addEventListener('pointerdown', stop, true);
    window.addEventListener('focusin', focusedElsewhere, true);
    place();
    return stop;
  }, [pathname]);

  return announcement;
}
