import { useNavigate } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { paths } from '@/config/paths';
import { FindPropertyForm } from '@/features/municipalities/components/find-property-form';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * Spec §2 Home: the portal title and the 'Find A Property' panel. The server paints the panel's heading
 * and introduction into index.html before the scripts run (STATIC_HOME_PAGE in
 * apps/server/src/plugins/web-app.ts): change one, change the other.
 */
export function Component() {
  const navigate = useNavigate();
  useDocumentTitle('Find A Property');
  return (
    <PublicLayout>
      <div className="opp-home">
        <section className="opp-home__panel" aria-labelledby="find-heading">
          <h1 id="find-heading" className="opp-home__heading">
            Find A Property
          </h1>
          <p className="opp-home__intro">
            Choose a region and a community to search its public property records. No account is needed.
          </p>
          <FindPropertyForm onSearch={(state, city) => void navigate(paths.search.getHref(state, city))} />
        </section>
      </div>
    </PublicLayout>
  );
}
