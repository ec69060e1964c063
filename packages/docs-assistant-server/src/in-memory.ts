/**
 * The assistant endpoint over docs held in memory, with no Node built-in anywhere in its imports:
 * for a browser (Storybook's mock `fetch`), a worker, or tests that bring their own Markdown.
 * Threads live in memory; the static export API is not part of it.
 */
import type { Hono } from 'hono';
import { createAssistantApp } from './app.js';
import type { AssistantRuntime } from './assistant.js';
import type { ServiceConfig } from './config.js';
import { parseDocument } from './docs/parse.js';
import { createExtractiveEngine } from './engines/extractive.js';
import type { AnswerEngine } from './engines/types.js';
import { type AssistantLimits, DEFAULT_ASSISTANT_LIMITS } from './limits.js';
import { type RateLimitOptions, resolveServiceConfig } from './options.js';
import { FixedWindowLimiter } from './rate-limit.js';
import { DocsIndex } from './retrieval/search-index.js';
import { ThreadStore } from './threads.js';

export interface InMemoryAssistantOptions {
  /** Markdown/MDX sources by path relative to the docs root: `{ 'guides/theming.md': '# Theming…' }`. */
  files: Record<string, string>;
  /** @default 'docs-assistant' */
  domain?: string;
  /** @default a random `svc_dsc_…` key */
  assistantKey?: string;
  siteUrl?: string;
  title?: string;
  /** @default the extractive engine */
  engine?: AnswerEngine;
  rateLimits?: RateLimitOptions;
  maxBodyBytes?: number;
  /** Caps on what requests store. @default DEFAULT_ASSISTANT_LIMITS */
  limits?: Partial<AssistantLimits>;
  warn?: (message: string) => void;
}

export interface InMemoryAssistant {
  fetch: (request: Request, env?: unknown) => Promise<Response>;
  app: Hono;
  config: ServiceConfig;
  index: DocsIndex;
  threads: ThreadStore;
  close: () => Promise<void>;
}

/** Label of the docs "folder" in the config: the docs are the given files. */
export const IN_MEMORY_DOCS = 'memory:';

export function createInMemoryAssistant(options: InMemoryAssistantOptions): InMemoryAssistant {
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  const config = resolveServiceConfig({
    docs: [IN_MEMORY_DOCS],
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.assistantKey ? { assistantKey: options.assistantKey } : {}),
    ...(options.siteUrl ? { siteUrl: options.siteUrl } : {}),
    ...(options.title ? { title: options.title } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const files = Object.keys(options.files)
    .filter((file) => /\.mdx?$/i.test(file))
    .sort();
  const seen = new Set<string>();
  const pages = [];
  for (const file of files) {
    const page = parseDocument(file.replace(/^\.?\//, ''), options.files[file]!);
    if (seen.has(page.path)) {
      warn(`${file}: page path ${page.path} is already taken; skipped`);
      continue;
    }
    seen.add(page.path);
    pages.push(page);
  }
  const index = new DocsIndex(pages);
  const { maxThreadBytes, maxStoredBytes } = config.limits ?? DEFAULT_ASSISTANT_LIMITS;
  const threads = new ThreadStore({ maxThreadBytes, maxStoredBytes, warn });
  const runtime: AssistantRuntime = {
    config,
    threads,
    engine: options.engine ?? createExtractiveEngine(),
    limiters: {
      perOrganization: new FixedWindowLimiter(config.rateLimits.perOrganization),
      perIp: new FixedWindowLimiter(config.rateLimits.perIp),
    },
    index: async () => index,
    trustProxy: false,
    warn,
  };
  const app = createAssistantApp(runtime);
  return {
    fetch: async (request, env) => app.fetch(request, env),
    app,
    config,
    index,
    threads,
    close: () => threads.flush(),
  };
}
