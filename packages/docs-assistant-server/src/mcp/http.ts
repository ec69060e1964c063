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
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AssistantRuntime } from '../assistant.js';
import type { DomainConfig } from '../config.js';
import { siteTitle } from '../docs/sites/published.js';
import {
  admission,
  answerRefusal,
  countIp,
  countOrganization,
  HttpError,
  type ServiceEnv,
} from '../http/index.js';
import { domainMarkdown } from './markdown.js';
import { MCP_ROUTE } from './route.js';
import { ParamsCheckedTransport } from './rpc.js';
import { createDocsMcpServer, GET_PAGE_TOOL, SEARCH_TOOL } from './tools.js';

export { MCP_ROUTE } from './route.js';

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

/**
 * The MCP family's first check, before any key: the domain (404), the page's origin (403, DNS
 * rebinding), a preflight, and POST only (405), each a JSON-RPC error; CORS headers go on every
 * answer to a page of an allowed origin. Puts the domain on the context for the key check.
 */
function mcpGate(
  runtime: AssistantRuntime,
  allows: (origin: string, domain: DomainConfig) => boolean,
): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
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
    c.set('domain', domain);
    await next();
    c.res = withHeaders(c.res, cors);
  };
}

/**
 * `requireKey`: the service's admission (the assistant key of the organization that owns the
 * domain), its refusals answered as JSON-RPC errors. A refused key counts against the address, so
 * a client guessing keys is slowed like any other; tool calls count as they are made (`admit`).
 */
function mcpKeyCheck(runtime: AssistantRuntime): MiddlewareHandler<ServiceEnv> {
  const admit = admission(runtime, {
    key: 'assistant',
    domain: 'context',
    countIp: false,
    countOrganization: false,
  });
  return answerRefusal(admit, async (error, c) => {
    if (!(error instanceof HTTPException)) return undefined;
    try {
      await countIp(c, runtime);
    } catch (limited) {
      if (!(limited instanceof HttpError)) throw limited;
      return rpcError(429, limited.message, limited.headers);
    }
    const refusal = error.getResponse();
    const { error: message } = (await refusal.json()) as { error: string };
    const challenge = refusal.headers.get('www-authenticate');
    return rpcError(refusal.status, message, challenge ? { 'WWW-Authenticate': challenge } : {});
  });
}

async function handleMcp(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const { config } = runtime;
  const domain = c.get('domain');
  const server = createDocsMcpServer({
    index: () => runtime.index(domain.domain),
    ...(domain.siteUrl ? { siteUrl: domain.siteUrl } : {}),
    // What the page's `.md` URL on this service answers (agents/routes.ts), links included.
    markdown: domainMarkdown(domain),
    // The server's description names the site (`--title`, else its config's name).
    title: siteTitle(domain, (await runtime.index(domain.domain).catch(() => undefined))?.pages ?? []),
    admit: async () => {
      try {
        await countIp(c, runtime);
        await countOrganization(runtime, domain.organization);
        runtime.insights?.agentCall(domain.domain);
        return undefined;
      } catch (error) {
        if (error instanceof HttpError && error.status === 429) return error.message;
        throw error;
      }
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
    return await transport.handleRequest(c.req.raw);
  } finally {
    // Every answer is in the response already (JSON mode): nothing of this request outlives it.
    void server.close();
  }
}

/**
 * Adds `/mcp` (the first domain) and `/mcp/{domain}` to an app, as a route family of their own:
 * their CORS, refusals and 405 are JSON-RPC's (`mcpGate`), and request bodies are capped by the
 * SDK's transport (`maxRequestBodySize`), which answers 413 as a JSON-RPC error too.
 */
export function mountMcpRoutes(app: Hono, runtime: AssistantRuntime, options: McpOptions = {}): void {
  if (options.enabled === false) return;
  const family = new Hono<ServiceEnv>();
  const gate = mcpGate(runtime, originCheck(options));
  const keyCheck = options.requireKey ? [mcpKeyCheck(runtime)] : [];
  for (const path of [MCP_ROUTE, `${MCP_ROUTE}/:domain`]) {
    family.all(path, gate, ...keyCheck, (c) => handleMcp(c, runtime));
  }
  app.route('/', family);
}
