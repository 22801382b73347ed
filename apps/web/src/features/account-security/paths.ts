/*
 * The account security page in each admin area. Kept beside the feature until config/paths.ts (owned
 * elsewhere) takes them; only strings, so the router can import this without pulling in admin code.
 */
const seg = (s: string) => encodeURIComponent(s);
const withNext = (href: string, next?: string | null) =>
  next ? `${href}?next=${encodeURIComponent(next)}` : href;

export const securityPaths = {
  provider: {
    path: '/admin/security',
    getHref: (next?: string | null) => withNext('/admin/security', next),
  },
  municipality: {
    path: '/:state/:city/admin/security',
    getHref: (state: string, city: string, next?: string | null) =>
      withNext(`/${seg(state)}/${seg(city)}/admin/security`, next),
  },
} as const;
