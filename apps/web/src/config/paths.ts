/** Every URL the web app links to, built in one place so public URLs stay stable and shareable. */
const seg = (s: string) => encodeURIComponent(s);

export const paths = {
  home: { path: '/', getHref: () => '/' },
  search: {
    path: '/:state/:city/search',
    getHref: (state: string, city: string) => `/${seg(state)}/${seg(city)}/search`,
  },
  town: { path: '/:state/:city', getHref: (state: string, city: string) => `/${seg(state)}/${seg(city)}` },
  property: {
    path: '/:state/:city/:account',
    getHref: (state: string, city: string, account: string) => `/${seg(state)}/${seg(city)}/${seg(account)}`,
  },
  municipalityAdmin: {
    path: '/:state/:city/admin',
    getHref: (state: string, city: string) => `/${seg(state)}/${seg(city)}/admin`,
  },
  providerAdmin: { path: '/admin', getHref: () => '/admin' },
  /** A client's own page in the provider console; `section` is one of its tabs (the first when left out). */
  providerClient: {
    path: '/admin/clients/:clientId/:section?',
    getHref: (clientId: number, section?: string) =>
      `/admin/clients/${clientId}${section ? `/${seg(section)}` : ''}`,
  },
} as const;
