/** Puts every page in a Suspense boundary of its own, as a docs site with a loading state does. */
export default function Loading() {
  return <p role="status">Loading…</p>;
}
