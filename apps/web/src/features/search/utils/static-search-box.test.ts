import type { PublicClient } from '@opp/contracts';
import { describe, expect, it } from 'vitest';
import { paintPage } from '@/painted-page';
import { holdStaticSearchSubmits, readStaticSearchBox, takeLateStaticSearch } from './static-search-box';

const town = { ClientID: 1, City: 'Harrison', StateProvince: 'Maine', BannerImage: null } as PublicClient;

/** The search page as the server paints it, holding `query` (src/painted-page.tsx). */
function paint(query: string) {
  document.body.innerHTML = paintPage({ page: 'search', town, query });
  return document.getElementById('opp-static-q') as HTMLInputElement;
}

describe('the search box painted with the page', () => {
  it('hands what was typed in it, before and while the app replaced it, to the app once', () => {
    const input = paint('baker');
    // Untouched: the URL's search stands.
    expect(readStaticSearchBox()).toEqual({ typed: null, focused: false });
    input.focus();
    input.value = 'main';
    expect(readStaticSearchBox()).toEqual({ typed: 'main', focused: true });
    expect(takeLateStaticSearch()).toBeNull();

    // Typed after the app read it, and the box then taken out of the page by React.
    input.value = 'main st';
    document.body.innerHTML = '';
    expect(takeLateStaticSearch()).toEqual({ text: 'main st', submit: false });
    expect(takeLateStaticSearch()).toBeNull();
  });

  it('keeps a search sent from it once the app has started, instead of letting the browser leave', () => {
    const input = paint('');
    holdStaticSearchSubmits();
    expect(readStaticSearchBox()).toEqual({ typed: null, focused: false });
    input.value = 'elm';
    const submit = new Event('submit', { cancelable: true });
    input.form!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    document.body.innerHTML = '';
    expect(takeLateStaticSearch()).toEqual({ text: 'elm', submit: true });
    expect(takeLateStaticSearch()).toBeNull();
  });
});
