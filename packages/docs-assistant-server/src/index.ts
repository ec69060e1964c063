/**
 * `docs-assistant-server`: the reference service, to start from code. `createAssistantService`
 * returns a standard `fetch(Request): Promise<Response>` handler (Hono inside) that serves the
 * spec's assistant and static export endpoints over folders of Markdown; run it under Node with
 * `@hono/node-server` (as the `docs-assistant serve` command does) or mount it in your own server.
 */
export * from './service.js';
