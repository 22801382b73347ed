// Placeholder until the accounts and municipality admin issue lands.
export function Component() {
  return (
    <main id="main-content" className="grid-container">
      Municipality admin: coming soon
    </main>
  );
}
