import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { paths } from '@/config/paths';
import { FindPropertyForm } from '@/features/municipalities/components/find-property-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * The home page's panel: its heading and introduction (the page's largest element), then `children`
 * (the community picker, which needs the app and the API). The server paints it without children before
 * the scripts run (src/painted-page.tsx).
 */
export function HomePanel({ children }: { children?: ReactNode }) {
  return (
    <div className="opp-home">
      <section className="opp-home__panel" aria-labelledby="find-heading">
        <h1 id="find-heading" className="opp-home__heading">
          Find A Property
        </h1>
        <p className="opp-home__intro">
          Choose a region and a community to search its public property records. No account is needed.
        </p>
        {children}
      </section>
    </div>
  );
}

/** Spec §2 Home: the portal title and the 'Find A Property' panel. */
export function Component() {
  const navigate = useNavigate();
  useDocumentTitle('Find A Property');
  return (
    <PublicLayout>
      <HomePanel>
        <FindPropertyForm onSearch={(state, city) => void navigate(paths.search.getHref(state, city))} />
      </HomePanel>
    </PublicLayout>
  );
}
