/**
 * The route the widget's `api` prop points at when the layout runs in proxy mode: it holds the
 * assistant key (a server-side environment variable) and forwards to the service. The proxy is
 * made on the first request, not at import: `next build` imports the route without the service's
 * environment.
 */
import { type AssistantProxy, createAssistantProxy } from 'docs-assistant/proxy';

export const dynamic = 'force-dynamic';

let proxy: AssistantProxy | undefined;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} on the server (see tests/consumers/next.test.ts).`);
  return value;
}

export function POST(request: Request): Promise<Response> {
  proxy ??= createAssistantProxy({
    baseUrl: required('DOCS_ASSISTANT_URL'),
    domain: required('DOCS_ASSISTANT_DOMAIN'),
    apiKey: required('DOCS_ASSISTANT_KEY'),
  });
  return proxy(request);
}
