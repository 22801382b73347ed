// Placeholder until the public web issue lands.
export function Component() {
  return (
    <main id="main-content" className="grid-container">
      Coming soon
    </main>
  );
}
