/**
 * The reference service's docs for agents, public like the docs themselves (no key):
 *
 * - `GET /llms.txt`, `GET /llms-full.txt`: the site's default language; `GET /{language}/llms.txt`
 *   and `/{language}/llms-full.txt` for each other language of the site;
 * - `GET /{page path}.md` (`/index.md` for the home page): the page as clean Markdown;
 * - `GET /{page path}` with `Accept: text/markdown` (preferred over `text/html`): the same.
 *
 * All answer `text/markdown; charset=utf-8`. Links are absolute under the domain's `siteUrl`, else
 * root-relative: never under the host a request names, so every document is built once per index
 * version (`derived.ts`) and carries an `ETag`. The search endpoint's rate limits (per IP, per
 * organization) count these requests too. One service serving several domains serves the one whose
 * `siteUrl` has the request's host, else the first configured.
 */
import { type Context, Hono, type Next } from 'hono';
import type { AssistantRuntime } from '../assistant.js';
import type { DomainConfig } from '../config.js';
import type { DocPage } from '../docs/parse.js';
import { countIp, countOrganization, publicCors, type ServiceEnv } from '../http/index.js';
import type { DocsIndex } from '../retrieval/search-index.js';
import { normalizePath } from '../retrieval/search-index.js';
import { acceptsMarkdown } from './accept.js';
import { derivedLlms, derivedPage } from './derived.js';
import { siteLanguages } from './index.js';

export { acceptsMarkdown } from './accept.js';

export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8';

// Paths of the service's own API: never pages.
// (A docs page may live under `/v1/`: only the static export API's prefix is the service's.)
const API_PATH = /^\/(discovery|mcp|v1\/static-export)(\/|$)|^\/health$/;
const LLMS_FILE = /^\/(?:([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\/)?(llms|llms-full)\.txt$/;

/**
 * Whether a request is one for the docs for agents (`.md`, `llms.txt`, or `Accept: text/markdown`
 * on a GET): a server that serves the HTML site on the same origin (`demo/serve.ts`) passes these
 * to the service.
 */
export function isAgentRequest(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = new URL(request.url).pathname;
  if (API_PATH.test(path)) return false;
  return path.endsWith('.md') || LLMS_FILE.test(path) || acceptsMarkdown(request.headers.get('accept'));
}

/** The domain a request serves: the one whose `siteUrl` has its host, else the first. */
function domainOf(runtime: AssistantRuntime, url: URL): DomainConfig | undefined {
  const domains = runtime.config.domains;
  const byHost = domains.find((domain) => {
    if (!domain.siteUrl) return false;
    try {
      return new URL(domain.siteUrl).host === url.host;
    } catch {
      return false;
    }
  });
  return byHost ?? domains[0];
}

const markdownResponse = (body: string, head: boolean, vary = false, etag?: string): Response =>
  new Response(head ? null : body, {
    headers: {
      'Content-Type': MARKDOWN_CONTENT_TYPE,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...(vary ? { Vary: 'Accept' } : {}),
      ...(etag ? { ETag: etag } : {}),
    },
  });

const notFound = (message: string): Response =>
  new Response(`${message}\n`, {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });

/** The page a Markdown URL names: `/guides/setup.md`, `/index.md`, `/guides/index.md`. */
function pageOfMarkdownPath(index: DocsIndex, path: string): DocPage | undefined {
  const bare = path.replace(/\.md$/i, '');
  const candidates = [bare, bare.replace(/\/index$/i, '') || '/'];
  for (const candidate of candidates) {
    const page = index.page(normalizePath(candidate));
    if (page) return page;
  }
  return undefined;
}

async function handle(c: Context, next: Next, runtime: AssistantRuntime): Promise<Response | undefined> {
  const url = new URL(c.req.url);
  const raw = url.pathname;
  if (API_PATH.test(raw)) return next().then(() => undefined);
  const llms = LLMS_FILE.exec(raw);
  const wantsPage = raw.endsWith('.md') || acceptsMarkdown(c.req.header('accept'));
  if (!llms && !wantsPage) return next().then(() => undefined);
  const head = c.req.method === 'HEAD';
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return notFound(`The path ${raw} is not valid percent-encoding; ask for a page as llms.txt lists it.`);
  }
  // URL parsing folds `/../`; encoded forms arrive here and are refused.
  if (path.split(/[/\\]/).some((segment) => segment === '..' || segment === '.') || /\p{Cc}/u.test(path)) {
    return notFound(
      `No page at ${raw}: page paths may not contain "." or ".." segments or control characters; ask for a page as /llms.txt lists it.`,
    );
  }
  const domain = domainOf(runtime, url);
  if (!domain) return next().then(() => undefined);
  // The search endpoint's limits: per IP address, then per organization owning the domain.
  await countIp(c, runtime);
  await countOrganization(runtime, domain.organization);
  const index = await runtime.index(domain.domain);
  const languages = siteLanguages(index);
  if (llms) {
    const language = llms[1];
    if (language && (!languages.includes(language) || language === languages[0])) {
      return notFound(
        languages.length > 1
          ? `No ${llms[2]}.txt for language "${language}": the site's languages are ${languages.join(', ')} (${languages[0]} at /${llms[2]}.txt, the others at /{language}/${llms[2]}.txt).`
          : `No ${llms[2]}.txt for language "${language}": the site has one language, its files are /llms.txt and /llms-full.txt.`,
      );
    }
    const built = await derivedLlms(index, domain, llms[2] as 'llms' | 'llms-full', language);
    const known =
      c.req
        .header('if-none-match')
        ?.split(',')
        .map((tag) => tag.trim()) ?? [];
    if (known.includes(built.etag) || known.includes('*')) {
      return new Response(null, { status: 304, headers: { ETag: built.etag } });
    }
    return markdownResponse(built.text, head, false, built.etag);
  }
  const byExtension = raw.endsWith('.md');
  const page = byExtension ? pageOfMarkdownPath(index, path) : index.page(normalizePath(path));
  if (!page) {
    return notFound(
      `No page ${byExtension ? path.replace(/\.md$/i, '') : path} in the docs of "${domain.domain}"; /llms.txt lists every page with its Markdown URL.`,
    );
  }
  return markdownResponse(derivedPage(index, domain, page), head, !byExtension);
}

/**
 * Adds `llms.txt`, `llms-full.txt` and the Markdown pages to the service's app: a route family of
 * one middleware on every path (a page may live anywhere), mounted after the others. Public CORS
 * goes on what it answers only, never on a request it passes on (an admin route's).
 */
export function mountAgentRoutes(app: Hono, runtime: AssistantRuntime): void {
  const family = new Hono<ServiceEnv>();
  family.use('*', async (c, next) => {
    if (!isAgentRequest(c.req.raw)) return next();
    return publicCors(c, async () => {
      const response = await handle(c, next, runtime);
      if (response) c.res = response;
    });
  });
  app.route('/', family);
}
