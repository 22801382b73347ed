/**
 * "Skip to main content" (WCAG 2.4.1): the first focusable element of every layout. It moves the focus
 * itself, because the router would treat the `#main-content` hash as a navigation.
 */
export function SkipNav() {
  return (
    <a
      className="usa-skipnav"
      href="#main-content"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
    >
      Skip to main content
    </a>
  );
}
