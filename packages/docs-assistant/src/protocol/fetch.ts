/** The `fetch` a host may pass to a route, a client or a panel (`globalFetch` where it passes none). */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The global `fetch`, looked up at each call (so one replaced later, a test's or a polyfill's, is used). */
export const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init);
