import { describe, expect, it } from 'vitest';
import { holdStaticSearchSubmits, readStaticSearchBox, takeLateStaticSearch } from './static-search-box';

/** The painted page's search form, as the server writes it (plugins/web-app.ts staticSearchForm). */
function paint(value: string) {
  document.body.innerHTML = `<form action="/Maine/Harrison/search" method="get"><input id="opp-static-q" type="search" name="q" value="${value}"><button type="submit">Search</button></form>`;
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
