import { createBrowserRouter, Navigate } from 'react-router';
import { CrashScreen } from '@/components/errors/crash-screen';
import { paths } from '@/config/paths';
import { securityPaths } from '@/features/account-security/paths';
import { lazyRoute } from './lazy-route';

/*
 * Each audience's screens are their own chunks: the public routes' bundle carries no admin code.
 * Route modules export `Component` (React Router's lazy convention).
 */
export const createAppRouter = () =>
  createBrowserRouter([
    {
      errorElement: <CrashScreen />,
      // Shown while the first route's chunk loads; keeps the page's landmark in place (no layout jump).
      hydrateFallbackElement: (
        <main id="main-content" className="grid-container padding-y-4" aria-busy="true">
          <p className="opp-visually-hidden">Loading…</p>
        </main>
      ),
      children: [
        { path: paths.home.path, lazy: lazyRoute(() => import('./routes/public/home')) },
        { path: paths.providerAdmin.path, lazy: lazyRoute(() => import('./routes/provider-admin/console')) },
        {
          path: securityPaths.provider.path,
          lazy: lazyRoute(() => import('./routes/provider-admin/security')),
        },
        {
          path: paths.municipalityAdmin.path,
          lazy: lazyRoute(() => import('./routes/municipality-admin/admin')),
        },
        {
          path: securityPaths.municipality.path,
          lazy: lazyRoute(() => import('./routes/municipality-admin/security')),
        },
        { path: paths.search.path, lazy: lazyRoute(() => import('./routes/public/search')) },
        { path: paths.property.path, lazy: lazyRoute(() => import('./routes/public/property')) },
        { path: paths.town.path, lazy: lazyRoute(() => import('./routes/public/search')) },
        { path: '*', element: <Navigate to={paths.home.getHref()} replace /> },
      ],
    },
  ]);
