/**
 * The MCP server over Streamable HTTP: `/mcp` serves the service's first (default) domain,
 * `/mcp/{domain}` any domain. Stateless (no session id): every POST gets a fresh server and
 * transport, so any replica answers any request, and nothing is kept between them. Answers are
 * plain JSON (no server-sent events): the tools send nothing before their result.
 *
 * Public by default (docs are public, and the assistant key is public too); `requireKey` asks for
 * the assistant key as the other discovery endpoints do. Each tool call counts against the same
 * per-IP and per-organization limits as a search. A request from a web page must come from an
 * allowed origin (the MCP specification's defence against DNS rebinding): requests without an
 * `Origin` header (agents, the CLI, the Inspector's CLI) are not browser requests and pass.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Hono } from 'hono';
import { type AssistantRuntime, rateLimited } from '../assistant.js';
import type { DomainConfig } from '../config.js';
import { clientIp, HttpError, requireKey } from '../http.js';
import { domainMarkdown } from './markdown.js';
import { MCP_ROUTE } from './route.js';
import { ParamsCheckedTransport } from './rpc.js';
import { createDocsMcpServer, GET_PAGE_TOOL, SEARCH_TOOL } from './tools.js';

export { isMcpPath, MCP_ROUTE } from './route.js';

export interface McpOptions {
  /** Serve `/mcp` and `/mcp/{domain}`. @default true */
  enabled?: boolean;
  /**
   * Ask for the assistant key (`Authorization: Bearer svc_dsc_…`) of the organization that owns
   * the domain. @default false: anyone may search the docs through MCP
   */
  requireKey?: boolean;
  /**
   * Origins (`https://docs.example.com`) whose web pages may call the MCP endpoint; `"*"` allows
   * every origin. The origin of each domain's `siteUrl` is always allowed. Requests without an
   * `Origin` header (not from a browser) are always accepted. @default none but the sites' own
   */
  allowedOrigins?: string[];
}

// JSON-RPC's "server error" range; the SDK's transport uses it for its HTTP-level refusals too.
const SERVER_ERROR = -32000;

/** A refusal before any JSON-RPC message is read: a JSON-RPC error with no id, as the spec allows. */
function rpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: SERVER_ERROR, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

const originOf = (value: string): string | undefined => {
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/** `https://docs.example.com[:port]`, nothing after the host: what browsers send as `Origin`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !/[/?#]./.test(value.replace(/^https?:\/\//i, ''))
    );
  } catch {
    return false;
  }
}

/**
 * Says whether a page of `origin` may call the MCP endpoint of `domain`. Throws when a listed
 * origin is not one (`docs.example.com` would never match a browser's `Origin`).
 */
function originCheck(options: McpOptions): (origin: string, domain: DomainConfig) => boolean {
  const listed = options.allowedOrigins ?? [];
  for (const origin of listed) {
    if (origin !== '*' && !isOrigin(origin)) {
      throw new Error(
        `mcp.allowedOrigins: "${origin}" is not an origin; write scheme, host and port only, like https://docs.example.com (or "*" for any origin).`,
      );
    }
  }
  if (listed.includes('*')) return () => true;
  const allowed = new Set(listed.map((origin) => originOf(origin) ?? origin));
  return (origin, domain) => {
    const normal = originOf(origin);
    if (!normal) return false;
    return allowed.has(normal) || (!!domain.siteUrl && originOf(domain.siteUrl) === normal);
  };
}

const corsHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, Retry-After, WWW-Authenticate',
  Vary: 'Origin',
});

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Max-Age': '600',
};

function withHeaders(response: Response, headers: Record<string, string>): Response {
  if (!Object.keys(headers).length) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: merged,
  });
}

/** The key check of `requireKey`: undefined when the caller may go on, else the refusal. */
async function checkKey(
  c: Context,
  runtime: AssistantRuntime,
  domain: DomainConfig,
): Promise<Response | undefined> {
  try {
    const owner = requireKey(runtime.config, c.req.header('authorization'), 'assistant');
    if (owner.organization.id === domain.organization) return undefined;
    return rpcError(
      403,
      `This assistant key is not valid for domain "${domain.domain}"; use the assistant key of the organization that owns it.`,
    );
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // A refused key counts against the address, so a client guessing keys is slowed like any other.
    const decision = await runtime.limiters.perIp.hit(clientIp(c, { trustProxy: runtime.trustProxy }));
    if (!decision.allowed) {
      const limited = rateLimited('from this IP address', decision);
      return rpcError(429, limited.message, limited.headers);
    }
    return rpcError(error.status, error.message, error.headers);
  }
}

async function handleMcp(
  c: Context,
  runtime: AssistantRuntime,
  options: McpOptions,
  allows: (origin: string, domain: DomainConfig) => boolean,
): Promise<Response> {
  const { config } = runtime;
  const name = c.req.param('domain');
  const domain = name === undefined ? config.domains[0] : config.domains.find((d) => d.domain === name);
  if (!domain) {
    const names = config.domains.map((d) => `"${d.domain}"`).join(', ');
    return rpcError(
      404,
      `Unknown domain "${name}"; this service serves ${names}: use ${MCP_ROUTE}/{domain} with one of them (${MCP_ROUTE} serves "${config.domains[0]?.domain}").`,
    );
  }
  const origin = c.req.header('origin');
  if (origin !== undefined && !allows(origin, domain)) {
    return rpcError(
      403,
      `Forbidden: pages of origin "${origin}" may not call this MCP server (DNS rebinding protection). ` +
        "MCP clients that are not web pages send no Origin header; to let a web page call it, add its origin to the service's mcp.allowedOrigins (serve --mcp-allowed-origin).",
    );
  }
  const cors = origin === undefined ? {} : corsHeaders(origin);
  if (c.req.method === 'OPTIONS')
    return new Response(null, { status: 204, headers: { ...cors, ...PREFLIGHT_HEADERS } });
  if (c.req.method !== 'POST') {
    // GET would open a stream for server-initiated messages, DELETE end a session: a stateless
    // server has neither, which the Streamable HTTP transport answers with 405.
    return rpcError(
      405,
      `Method not allowed: this MCP server is stateless (no sessions, no server-sent stream); POST JSON-RPC messages to ${c.req.path}.`,
      { ...cors, Allow: 'POST, OPTIONS' },
    );
  }
  if (options.requireKey) {
    const refused = await checkKey(c, runtime, domain);
    if (refused) return withHeaders(refused, cors);
  }

  const server = createDocsMcpServer({
    index: () => runtime.index(domain.domain),
    ...(domain.siteUrl ? { siteUrl: domain.siteUrl } : {}),
    // What the page's `.md` URL on this service answers (agents/routes.ts), links included.
    markdown: domainMarkdown(domain),
    ...(domain.title ? { title: domain.title } : {}),
    admit: async () => {
      const { limiters } = runtime;
      const ipDecision = await limiters.perIp.hit(clientIp(c, { trustProxy: runtime.trustProxy }));
      if (!ipDecision.allowed) return rateLimited('from this IP address', ipDecision).message;
      const orgDecision = await limiters.perOrganization.hit(domain.organization);
      if (!orgDecision.allowed) return rateLimited('for this organization', orgDecision).message;
      return undefined;
    },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: config.maxBodyBytes,
  });
  // Malformed params get the protocol's -32602 before the server parses them (rpc.ts).
  await server.connect(new ParamsCheckedTransport(transport, [SEARCH_TOOL, GET_PAGE_TOOL]));
  try {
    return withHeaders(await transport.handleRequest(c.req.raw), cors);
  } finally {
    // Every answer is in the response already (JSON mode): nothing of this request outlives it.
    void server.close();
  }
}

/** Adds `/mcp` (the first domain) and `/mcp/{domain}` to an app. */
export function mountMcpRoutes(app: Hono, runtime: AssistantRuntime, options: McpOptions = {}): void {
  if (options.enabled === false) return;
  const allows = originCheck(options);
  const handler = (c: Context) => handleMcp(c, runtime, options, allows);
  app.all(MCP_ROUTE, handler);
  app.all(`${MCP_ROUTE}/:domain`, handler);
}
