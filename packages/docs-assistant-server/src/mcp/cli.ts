/**
 * `docs-assistant mcp`: the MCP server's `search` and `get_page` tools over stdio, for a local docs
 * folder, with no service running (`claude mcp add docs -- npx docs-assistant mcp --docs ./docs`).
 * Standard output carries the protocol alone: every line for people goes to standard error.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type CliCommand, CliUsageError, parseFlags } from '../cli/types.js';
import { siteName } from '../docs/sites/published.js';
import { DEFAULT_DOCS_DIR } from '../options.js';
import { PersistedDocsIndex } from '../retrieval/persist.js';
import type { DocsIndex } from '../retrieval/search-index.js';
import { agentMarkdown } from './markdown.js';
import { ParamsCheckedTransport } from './rpc.js';
import { LineTransport } from './stdio.js';
import { createDocsMcpServer, GET_PAGE_TOOL, SEARCH_TOOL } from './tools.js';

const usage = `Usage: docs-assistant mcp [options]

Runs an MCP server over stdio (standard input and output) with two read-only tools over a
folder of Markdown/MDX docs: search (query, pageSize, scoreThreshold, version, language) and
get_page (path). For MCP clients that start a command:

  claude mcp add docs -- npx docs-assistant mcp --docs ./docs

Messages for people go to standard error; standard output is the protocol's.

Options:
  --docs <dir>        Docs folder (repeatable)                     [default: ${DEFAULT_DOCS_DIR}]
  --site-url <url>    Public URL of the docs: result URLs are absolute under it
  --title <name>      Site name, in the server's instructions
  --hidden-pages <m>  exclude or include pages the site's navigation does not list
                                                                    [default: exclude]
  --watch             Index the docs again when a file changes
  -h, --help          Show this help`;

export const mcpCommand: CliCommand = {
  summary: 'MCP server (search, get_page) over stdio for a docs folder',
  usage,
  async run(args, io) {
    const flags = parseFlags(args, {
      values: ['docs', 'site-url', 'title', 'hidden-pages'],
      repeatable: ['docs'],
      booleans: ['watch'],
    });
    if (flags.booleans.has('help')) {
      io.out(usage);
      return 0;
    }
    const one = (name: string): string | undefined => flags.values[name]?.[0];
    const docs = (flags.values.docs ?? [DEFAULT_DOCS_DIR]).map((dir) => resolve(dir));
    for (const dir of docs) {
      const info = await stat(dir).catch(() => null);
      if (!info?.isDirectory()) {
        throw new CliUsageError(`Docs folder ${dir} does not exist or is not a folder; pass --docs <dir>.`);
      }
    }
    const siteUrl = one('site-url');
    if (siteUrl !== undefined && !/^https?:\/\/[^/]/i.test(siteUrl)) {
      throw new CliUsageError(
        `--site-url must be an http(s) URL, like https://docs.example.com (got "${siteUrl}").`,
      );
    }
    const hiddenPages = one('hidden-pages');
    if (hiddenPages !== undefined && hiddenPages !== 'exclude' && hiddenPages !== 'include') {
      throw new CliUsageError(`--hidden-pages must be "exclude" or "include" (got "${hiddenPages}").`);
    }
    const warn = (message: string) => io.err(`docs-assistant mcp: ${message}`);
    const store = new PersistedDocsIndex({
      folders: docs,
      ...(hiddenPages ? { site: { hiddenPages } } : {}),
      incremental: flags.booleans.has('watch'),
      warn,
    });
    const build = await store.open();
    let index: DocsIndex = build.index;
    if (flags.booleans.has('watch')) {
      store.watch({
        onUpdate: (update) => {
          index = update.index;
          warn(`re-indexed: ${update.index.pages.length} pages`);
        },
        onError: (error) => warn(`re-indexing failed, the previous index stays: ${(error as Error).message}`),
      });
    }
    const title = one('title') ?? siteName(index.pages);
    const server = createDocsMcpServer({
      index: async () => index,
      ...(siteUrl ? { siteUrl } : {}),
      ...(title ? { title } : {}),
      // No server serves `.md` URLs here: links between pages stay root-relative `.md` paths, which
      // get_page takes; the site's other files are linked under --site-url.
      markdown: agentMarkdown(siteUrl ? { siteBase: siteUrl } : {}),
    });
    // Malformed params get -32602 and an oversized line is dropped, said on stderr, never the end.
    const transport = new ParamsCheckedTransport(new LineTransport(process.stdin, process.stdout), [
      SEARCH_TOOL,
      GET_PAGE_TOOL,
    ]);
    server.onerror = (error) => warn(error.message);
    // The client closing its end (stdin) ends the server, watcher included.
    process.stdin.once('end', () => {
      void server.close().finally(() => process.exit(0));
    });
    await server.connect(transport);
    io.err(
      `docs-assistant mcp: ${index.pages.length} pages (${index.sections.length} sections) from ${docs.join(', ')}; tools search and get_page on stdio`,
    );
    return 0;
  },
};
