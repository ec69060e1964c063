/**
 * The service's one HTTP layer, on hono's own parts: the error contract (`HttpError`, an
 * `HTTPException`), the one `onError`, bearer keys and the admission middleware with its typed
 * context variables, body caps and JSON bodies, the client's address, CORS and 405s per route
 * family.
 */
export * from './admission.js';
export * from './auth.js';
export * from './body.js';
export * from './client-ip.js';
export * from './errors.js';
export * from './family.js';
export * from './query.js';
