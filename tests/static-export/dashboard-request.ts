/**
 * What a signed-in admin's dashboard page sends to the host's static export handler: the session
 * cookie, and the headers every browser adds to a same-origin `fetch` (`Sec-Fetch-Site`, and
 * `Origin` on anything but GET). Tests that call the handler in-process build their requests here,
 * so they pass the handler's origin and authorize checks as the panel in a real page does.
 */

export const SESSION_COOKIE = 'session=admin-token';

/** The host's `authorize` in these tests: a signed-in admin has the session cookie. */
export const authorizeSession = (request: Request): boolean =>
  (request.headers.get('cookie') ?? '').split(/;\s*/).includes(SESSION_COOKIE);

/** A request as the dashboard page at the URL's own origin sends it with `fetch`. */
export function dashboardRequest(url: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set('Sec-Fetch-Site', 'same-origin');
  headers.set('Cookie', SESSION_COOKIE);
  const method = (init.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') headers.set('Origin', new URL(url).origin);
  return new Request(url, { ...init, headers });
}
