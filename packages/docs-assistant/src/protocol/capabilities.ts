/**
 * The widget's one capability probe: what the service at a base URL says it offers, read from its
 * `GET /health` (`capabilities`, e.g. `share`, `feedback`), asked once per base URL and shared by
 * every view that needs it. A service that does not answer, or answers without the list, offers
 * nothing, so a reader never sees an action fail against a service without its endpoint.
 *
 * In `protocol/` (what the service's `/health` says is part of the wire contract, and this module
 * imports nothing) so that the share view imports it and the feedback view gets it through its kit:
 * one module reached from two lazy views would be copied into both chunks by webpack and Rspack.
 */

const asked = new Map<string, Promise<readonly unknown[]>>();

/** Whether the service at `baseUrl` lists `capability` in its `/health`. */
export function serviceOffers(
  baseUrl: string,
  capability: string,
  fetcher: typeof fetch = fetch,
): Promise<boolean> {
  const url = `${baseUrl.replace(/\/+$/, '')}/health`;
  let listed = asked.get(url);
  if (!listed) {
    listed = fetcher(url)
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { capabilities?: unknown } | null) =>
        Array.isArray(body?.capabilities) ? (body.capabilities as unknown[]) : [],
      )
      .catch(() => []);
    asked.set(url, listed);
  }
  return listed.then((capabilities) => capabilities.includes(capability));
}
