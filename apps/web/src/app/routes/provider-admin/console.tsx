// Placeholder until the provider console issue lands.
export function Component() {
  return (
    <main id="main-content" className="grid-container">
      Provider console: coming soon
    </main>
  );
}
