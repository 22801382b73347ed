import type { PublicClient } from '@opp/contracts';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TownHeading } from '@/features/municipalities/components/town-heading';
import { paintPage } from './painted-page';

/*
 * The painter's pages (what the server paints before the app runs) are the pages' own components: the
 * same elements the app then renders in the same place, so nothing moves when it takes over.
 */

const town = (over: Partial<PublicClient> = {}) =>
  ({
    ClientID: 7,
    City: 'Old Orchard',
    StateProvince: 'Maine',
    Description: 'Town of </script><b>Orchard',
    BannerImage: 'town banner.png',
    ...over,
  }) as PublicClient;

/** The painted HTML as the browser reads it (attributes compared whatever their order). */
function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

describe('painted pages', () => {
  it("paints a town's search page: its heading as TownHeading renders it, and a search box that works alone", () => {
    for (const client of [town(), town({ BannerImage: null })]) {
      const page = parse(paintPage({ page: 'search', town: client, query: '"><b>main st' }));
      const heading = page.querySelector('main#main-content .opp-container > .opp-town')!;
      expect(heading.isEqualNode(render(<TownHeading client={client} />).container.firstChild)).toBe(true);
      // Until the app takes over, the box is a plain GET form to the same page with the URL's query.
      const form = page.querySelector('form[role="search"]') as HTMLFormElement;
      expect(form.method).toBe('get');
      expect(form.getAttribute('action')).toBeNull();
      const box = page.querySelector('#opp-static-q') as HTMLInputElement;
      expect(box.name).toBe('q');
      expect(box.value).toBe('"><b>main st');
      expect(page.querySelector(`label[for="opp-static-q"]`)!.textContent).toBe(
        'Search by owner, address, map/lot or account',
      );
      expect(page.querySelector('b')).toBeNull();
    }
  });

  it("paints a record's page: the town as a paragraph, then the record's address as the h1", () => {
    const client = town({ BannerImage: null });
    const page = parse(paintPage({ page: 'record', town: client, heading: '12 MAIN <ST>, UNIT B' }));
    const heading = page.querySelector('.opp-container.opp-record > .opp-town')!;
    expect(heading.isEqualNode(render(<TownHeading client={client} as="p" />).container.firstChild)).toBe(
      true,
    );
    expect(page.querySelector('h1.opp-record-head__address')!.textContent).toBe('12 MAIN <ST>, UNIT B');
    const unknown = parse(paintPage({ page: 'record', town: client, heading: null }));
    expect(unknown.querySelector('h1')).toBeNull();
    expect(unknown.querySelector('form')).toBeNull();
  });

  it("paints the home page's heading and introduction, without the community picker", () => {
    const page = parse(paintPage({ page: 'home' }));
    expect(page.querySelector('h1')!.textContent).toBe('Find A Property');
    expect(page.querySelector('.opp-home__intro')!.textContent).toMatch(/No account is needed/);
    expect(page.querySelector('select, form')).toBeNull();
  });
});
