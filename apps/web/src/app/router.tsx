import { lazy, Suspense, type ComponentType } from 'react';
import { matchRoutes, Navigate, Route, Routes, useLocation } from 'react-router';
import { CrashBoundary } from '@/components/errors/crash-screen';
import { paths } from '@/config/paths';
import { securityPaths } from '@/features/account-security/paths';
import { lazyRoute } from './lazy-route';
import { enableToasts } from './provider';
import { useRouteFocus } from './use-route-focus';

/** A route module exports `Component` (React Router's lazy convention, kept for the tests' routers). */
interface RouteModule {
  Component: ComponentType;
}

/**
 * A route's chunk, asked for once: by mountApp before the first render, or by React when a link leads
 * there. One lazy component per module: the town and search paths show the same component, which, as
 * under React Router's data router, is kept (not remounted) when the visitor moves between the two.
 */
function routeModule(load: () => Promise<RouteModule>, { toasts = false } = {}) {
  let loading: Promise<RouteModule> | null = null;
  const preload = () =>
    (loading ??= lazyRoute(load)().then((m) => {
      if (toasts) enableToasts();
      return m;
    }));
  return { preload, Component: lazy(() => preload().then((m) => ({ default: m.Component }))) };
}

/*
 * Each audience's screens are their own chunks: the public routes' bundle carries no admin code (the
 * admin screens toast; the public ones do not).
 * Declarative routes rather than React Router's data router (createBrowserRouter): the app uses none
 * of its loaders, actions or fetchers, and it was 16 KB of every public page's compressed script.
 */
const admin = (load: () => Promise<RouteModule>) => routeModule(load, { toasts: true });
const home = routeModule(() => import('./routes/public/home'));
const search = routeModule(() => import('./routes/public/search'));
const routes = [
  { path: paths.home.path, module: home },
  { path: paths.providerAdmin.path, module: admin(() => import('./routes/provider-admin/console')) },
  {
    path: paths.providerClient.path,
    module: admin(() => import('./routes/provider-admin/client')),
  },
  {
    path: securityPaths.provider.path,
    module: admin(() => import('./routes/provider-admin/security')),
  },
  {
    path: paths.municipalityAdmin.path,
    module: admin(() => import('./routes/municipality-admin/admin')),
  },
  {
    path: securityPaths.municipality.path,
    module: admin(() => import('./routes/municipality-admin/security')),
  },
  { path: paths.search.path, module: search },
  { path: paths.property.path, module: routeModule(() => import('./routes/public/property')) },
  { path: paths.town.path, module: search },
];

/** Loads the chunk of the page at `pathname` (none for an unknown path, which goes home). */
export async function preloadRoute(pathname: string): Promise<void> {
  const match = matchRoutes(routes, pathname)?.[0];
  if (match) await match.route.module.preload();
}

/** The app's pages; a render error or a page that fails to load shows the crash screen. */
export function AppRoutes() {
  const location = useLocation();
  const arrived = useRouteFocus();
  return (
    // Another page (a link, Back) leaves the crash screen, as React Router's errorElement did.
    <CrashBoundary resetKey={location.key}>
      <p className="opp-visually-hidden" role="status" aria-live="polite">
        {arrived}
      </p>
      {/* Shown while a page's chunk loads; keeps the page's landmark in place (no layout jump). */}
      <Suspense
        fallback={
          <main id="main-content" className="grid-container padding-y-4" aria-busy="true">
            <p className="opp-visually-hidden">Loading…</p>
          </main>
        }
      >
        <Routes>
          {routes.map(({ path, module: { Component } }) => (
            <Route key={path} path={path} element={<Component />} />
          ))}
          <Route path="*" element={<Navigate to={paths.home.getHref()} replace />} />
        </Routes>
      </Suspense>
    </CrashBoundary>
  );
}
