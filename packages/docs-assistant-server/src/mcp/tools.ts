/**
 * The MCP server of a docs site: two read-only tools, `search` and `get_page`, over the same index
 * the assistant and the search endpoint read. Transport-free: `http.ts` serves it at `/mcp` (one
 * server per request, stateless) and `cli.ts` over stdio for a local docs folder.
 *
 * Built on the SDK's low-level `Server` rather than `McpServer`: `McpServer` takes zod schemas and
 * answers bad arguments with zod's own issue list, while these tools advertise plain JSON Schemas
 * and check arguments with the search endpoint's validators, so an agent gets the same "what to
 * change" sentences a caller of `POST /discovery/v1/search/{domain}` gets.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  DEFAULT_SEARCH_PAGE_SIZE,
  findPage,
  MAX_PAGE_PATH_CHARS,
  MAX_SEARCH_PAGE_SIZE,
  MAX_SEARCH_QUERY_CHARS,
  type SearchResultItem,
  searchDocs,
  validatePageRequest,
  validateSearchRequest,
} from '../discovery/search.js';
import type { DocPage } from '../docs/parse.js';
import { HttpError } from '../http/index.js';
import { siteFacets } from '../retrieval/reader.js';
import { type DocsIndex, normalizePath } from '../retrieval/search-index.js';
import { closestPaths } from './closest.js';
import { agentMarkdown, type PageMarkdown } from './markdown.js';

export const SEARCH_TOOL = 'search';
export const GET_PAGE_TOOL = 'get_page';
/** Characters of a section's text a search result shows. */
export const SNIPPET_CHARS = 300;
/** How many existing paths a `get_page` miss names. */
export const CLOSEST_PATHS = 5;

/** What the tools read: one docs site. */
export interface McpDocsSource {
  /** The site's index (built on first use). */
  index: () => Promise<DocsIndex>;
  /** Public URL of the docs: result URLs are absolute under it, and `get_page` accepts them. */
  siteUrl?: string;
  /** The site's name, for the server's instructions. */
  title?: string;
  /**
   * Counts one tool call against the service's rate limits; resolves with a sentence saying when
   * to retry once over a limit (the call then gets a tool error), else undefined.
   */
  admit?: () => Promise<string | undefined>;
  /** Turns a page into the Markdown `get_page` returns. @default `agentMarkdown()` (`markdown.ts`) */
  markdown?: PageMarkdown;
}

/** One result of the `search` tool (its structured content is `{ results: SearchToolResult[] }`). */
export interface SearchToolResult {
  /** `Page title › Heading`. */
  title: string;
  /** The section's link: absolute under the site URL when there is one, else `path#anchor`. */
  url: string;
  /** The page's path, for `get_page`. */
  path: string;
  snippet: string;
  /** The 0–1 score `scoreThreshold` is compared with, as the search endpoint reports it. */
  score: number;
  version?: string;
  language?: string;
}

/** Server name and version in the MCP `initialize` answer. */
export const MCP_SERVER_INFO = { name: 'docs-assistant', version: '0.1.0' } as const;

const facetsText = (values: string[], what: string): string =>
  values.length
    ? ` This site's ${what}: ${values.map((value) => `"${value}"`).join(', ')} (default first).`
    : '';

function searchTool(index: DocsIndex): Tool {
  const { languages, versions } = siteFacets(index);
  return {
    name: SEARCH_TOOL,
    title: 'Search the docs',
    description:
      'Searches the documentation and returns the best-matching sections, best first: title, URL and a short snippet each. ' +
      `Read a whole page with ${GET_PAGE_TOOL} (pass a result's path). Without language, the query's language chooses the pages; ` +
      "without version, the site's default version.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_SEARCH_QUERY_CHARS,
          description: 'The words or question to search for.',
        },
        pageSize: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SEARCH_PAGE_SIZE,
          default: DEFAULT_SEARCH_PAGE_SIZE,
          description: 'How many results at most.',
        },
        scoreThreshold: {
          type: 'number',
          minimum: 0,
          maximum: 1,
          description:
            'Leave out results scoring below this (0–1; 1 is a section with every query word and the best relevance). 0.5 keeps close matches.',
        },
        version: {
          type: 'string',
          description: `Only pages of this docs version.${facetsText(versions, 'versions')}`,
        },
        language: {
          type: 'string',
          description: `Only pages in this language (code such as "en").${facetsText(languages, 'languages')}`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              url: { type: 'string' },
              path: { type: 'string' },
              snippet: { type: 'string' },
              score: { type: 'number', minimum: 0, maximum: 1 },
              version: { type: 'string' },
              language: { type: 'string' },
            },
            required: ['title', 'url', 'path', 'snippet', 'score'],
            additionalProperties: false,
          },
        },
      },
      required: ['results'],
      additionalProperties: false,
    },
    annotations: { title: 'Search the docs', readOnlyHint: true, openWorldHint: false },
  };
}

const getPageTool: Tool = {
  name: GET_PAGE_TOOL,
  title: 'Read a docs page',
  description:
    'Returns one documentation page as Markdown. Pass the path of a search result ("/guides/theming"); its URL works too.',
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_PAGE_PATH_CHARS,
        description: 'The page path from the docs root, like "/guides/theming", or the page URL.',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  annotations: { title: 'Read a docs page', readOnlyHint: true, openWorldHint: false },
};

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The validators' sentence (`Invalid request body: query: …`) worded for tool arguments. */
function argumentError(error: unknown, tool: string): CallToolResult {
  if (error instanceof HttpError) {
    // The endpoint's `filter.version` is the tool's `version`.
    const list = error.issues?.length
      ? error.issues.map((issue) => `${issue.path.replace(/^filter\./, '')}: ${issue.message}`).join('; ')
      : error.message;
    return toolError(`Invalid arguments for ${tool}: ${list}.`);
  }
  throw error;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** Names arguments a tool does not take (an agent's `limit` for `pageSize`), with the ones it does. */
function unknownArguments(args: Record<string, unknown>, tool: Tool): CallToolResult | undefined {
  const known = Object.keys(tool.inputSchema.properties ?? {});
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (!unknown.length) return undefined;
  return toolError(
    `Invalid arguments for ${tool.name}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')}; ` +
      `${tool.name} takes ${known.map((name) => `"${name}"`).join(', ')}.`,
  );
}

/** A section's text as one line of at most `SNIPPET_CHARS` characters, cut at a word. */
export function snippetOf(content: string): string {
  const flat = content
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(flat);
  if (chars.length <= SNIPPET_CHARS) return flat;
  const cut = chars.slice(0, SNIPPET_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

export function searchToolResult(item: SearchResultItem): SearchToolResult {
  const { title, url, score, version, language } = item.metadata;
  return {
    title,
    url,
    path: item.path,
    snippet: snippetOf(item.content),
    score,
    ...(version ? { version } : {}),
    ...(language ? { language } : {}),
  };
}

function searchText(query: string, results: SearchToolResult[]): string {
  if (!results.length) {
    return `No results for "${query}". Try other words, a lower scoreThreshold, or leave out version and language.`;
  }
  return results
    .map((result, i) => `${i + 1}. ${result.title}\n   ${result.url}\n   ${result.snippet}`)
    .join('\n\n');
}

async function runSearch(source: McpDocsSource, index: DocsIndex, args: Record<string, unknown>) {
  const { query, pageSize, scoreThreshold, version, language } = args;
  let request: ReturnType<typeof validateSearchRequest>;
  try {
    // The search endpoint's validator, on the endpoint's body shape: the same limits and words.
    request = validateSearchRequest({
      query,
      pageSize,
      scoreThreshold,
      ...(version !== undefined || language !== undefined ? { filter: { version, language } } : {}),
    });
  } catch (error) {
    return argumentError(error, SEARCH_TOOL);
  }
  const results = searchDocs(index, request, source.siteUrl).map(searchToolResult);
  return {
    content: [{ type: 'text' as const, text: searchText(request.query, results) }],
    structuredContent: { results },
  } satisfies CallToolResult;
}

/**
 * What an agent passes as a page: a path (`/guides/theming`, `guides/theming.md`) or a link from a
 * search result (`https://docs.acme.test/guides/theming#dark-mode`). `..` is refused before a URL
 * would resolve it away.
 */
function pagePathOf(raw: string): string {
  let path = raw.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      // Not a URL after all: looked up as given, and named as missing.
    }
  }
  path = path.replace(/[?#].*$/, '').replace(/\.mdx?$/i, '');
  try {
    path = decodeURI(path);
  } catch {
    // A stray `%`: looked up as given.
  }
  return normalizePath(path);
}

async function runGetPage(source: McpDocsSource, index: DocsIndex, args: Record<string, unknown>) {
  try {
    validatePageRequest({ path: args.path });
  } catch (error) {
    return argumentError(error, GET_PAGE_TOOL);
  }
  const path = pagePathOf(args.path as string);
  try {
    // Again once decoded: `%2e%2e` is `..` too.
    validatePageRequest({ path });
  } catch (error) {
    return argumentError(error, GET_PAGE_TOOL);
  }
  // `/index.md`, as a site's root page is linked in Markdown, is the page at `/`.
  const page: DocPage | undefined =
    findPage(index, path, source.siteUrl) ??
    (path.endsWith('/index')
      ? findPage(index, normalizePath(path.slice(0, -'/index'.length)), source.siteUrl)
      : undefined);
  if (!page) {
    const closest = closestPaths(
      index.pages.map((p) => p.path),
      path,
      CLOSEST_PATHS,
    );
    return toolError(
      `No page "${path}" in these docs. Closest existing paths: ${closest.join(', ')}. ` +
        `Pass one of them, or the path of a ${SEARCH_TOOL} result.`,
    );
  }
  const markdown = await (source.markdown ?? agentMarkdown())(page, index);
  return { content: [{ type: 'text' as const, text: markdown }] } satisfies CallToolResult;
}

// The server builds an Ajv instance of its own unless given one (about 1 ms, for elicitation these
// tools never use): one for every server, since the HTTP endpoint makes a server per request.
let validator: AjvJsonSchemaValidator | undefined;

/** An MCP server with the `search` and `get_page` tools over `source`; connect it to a transport. */
export function createDocsMcpServer(source: McpDocsSource): Server {
  const site = source.title ? `the ${source.title} docs` : 'these docs';
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { ...MCP_SERVER_INFO, title: source.title ? `${source.title} docs` : 'Docs' },
    {
      jsonSchemaValidator: validator,
      capabilities: { tools: { listChanged: false } },
      instructions: `Search ${site} with ${SEARCH_TOOL}, then read a whole page with ${GET_PAGE_TOOL} (the path of a result).`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [searchTool(await source.index()), getPageTool],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    if (name !== SEARCH_TOOL && name !== GET_PAGE_TOOL) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${name}"; this server has "${SEARCH_TOOL}" and "${GET_PAGE_TOOL}".`,
      );
    }
    const args = request.params.arguments ?? {};
    if (!isRecord(args)) return toolError(`Invalid arguments for ${name}: send an object.`);
    const index = await source.index();
    const tool = name === SEARCH_TOOL ? searchTool(index) : getPageTool;
    const unknown = unknownArguments(args, tool);
    if (unknown) return unknown;
    const refused = await source.admit?.();
    if (refused) return toolError(refused);
    return name === SEARCH_TOOL ? runSearch(source, index, args) : runGetPage(source, index, args);
  });
  return server;
}
