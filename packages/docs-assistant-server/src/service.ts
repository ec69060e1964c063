/**
 * The reference service: a standard fetch handler (Hono inside) that answers the spec's endpoints
 * over folders of Markdown/MDX docs. Runs under Node (`@hono/node-server`), in tests in-process,
 * and as a mock `fetch` wherever a `Request` can be made.
 */
import type { Hono } from 'hono';
import { createAssistantApp } from './app.js';
import type { AssistantRuntime } from './assistant.js';
import type { ServiceConfig } from './config.js';
import { createExtractiveEngine } from './engines/extractive.js';
import { createOpenAIEngine } from './engines/openai.js';
import type { AnswerEngine } from './engines/types.js';
import { DEFAULT_ASSISTANT_LIMITS } from './limits.js';
import { type AssistantServiceOptions, resolveServiceConfig } from './options.js';
import { FixedWindowLimiter } from './rate-limit.js';
import { DocsIndex, loadDocs, type SiteReport } from './retrieval/index.js';
import { createStaticExportRoutes } from './static-export/routes.js';
import { ThreadStore } from './threads.js';

export { createAssistantApp } from './app.js';
export { ASSISTANT_MESSAGE_ROUTE } from './assistant.js';
export type { AnswerEngine } from './engines/types.js';
export { type AssistantLimits, DEFAULT_ASSISTANT_LIMITS } from './limits.js';
export * from './options.js';

export interface AssistantService {
  /** The fetch handler; pass Node bindings (`@hono/node-server` does) for the client IP. */
  fetch: (request: Request, env?: unknown) => Promise<Response>;
  /** The Hono app, to mount more routes (the static export API) on. */
  app: Hono;
  config: ServiceConfig;
  /** Loads every domain's docs and the stored threads; rejects with the first problem. */
  ready: () => Promise<void>;
  /** The search index of a domain (built on first use). */
  index: (domain: string) => Promise<DocsIndex>;
  /** What loading a domain's docs found, per folder (framework, pages per language, files skipped); empty before it is loaded. */
  siteReports: (domain: string) => SiteReport[];
  threads: ThreadStore;
  /** Waits for pending writes. The HTTP server, if any, is closed by whoever started it. */
  close: () => Promise<void>;
}

function createEngine(options: AssistantServiceOptions): AnswerEngine {
  const engine = options.engine ?? 'extractive';
  if (typeof engine === 'object') return engine;
  if (engine === 'openai') return createOpenAIEngine(options.openai);
  if (engine === 'extractive') return createExtractiveEngine();
  throw new Error(`Unknown engine "${String(engine)}"; use "extractive" or "openai".`);
}

export function createAssistantService(options: AssistantServiceOptions): AssistantService {
  const config = resolveServiceConfig(options);
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  const { maxThreadBytes, maxStoredBytes } = config.limits ?? DEFAULT_ASSISTANT_LIMITS;
  const threads = new ThreadStore({
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    maxThreadBytes,
    maxStoredBytes,
    warn,
  });
  const indexes = new Map<string, Promise<DocsIndex>>();
  const siteReports = new Map<string, SiteReport[]>();
  const index = (domain: string): Promise<DocsIndex> => {
    let built = indexes.get(domain);
    if (!built) {
      const entry = config.domains.find((d) => d.domain === domain);
      if (!entry) return Promise.reject(new Error(`Unknown domain "${domain}".`));
      const reports: SiteReport[] = [];
      built = loadDocs(entry.docs, {
        warn,
        ...(entry.site ? { site: entry.site } : {}),
        onReport: (report) => reports.push(report),
      }).then((pages) => {
        siteReports.set(domain, reports);
        return new DocsIndex(pages);
      });
      // A failed load is retried on the next request instead of being cached.
      built.catch(() => indexes.delete(domain));
      indexes.set(domain, built);
    }
    return built;
  };

  const runtime: AssistantRuntime = {
    config,
    threads,
    engine: createEngine(options),
    limiters: {
      perOrganization: new FixedWindowLimiter(config.rateLimits.perOrganization),
      perIp: new FixedWindowLimiter(config.rateLimits.perIp),
    },
    index,
    trustProxy: options.trustProxy ?? false,
    warn,
  };

  const app = createAssistantApp(runtime);
  // Static export API (spec §4.2–4.4) and its presigned downloads: server/static-export/.
  const staticExport = createStaticExportRoutes(config, options.staticExport);
  app.route('/', staticExport.app);

  return {
    fetch: async (request, env) => app.fetch(request, env),
    app,
    config,
    ready: async () => {
      await Promise.all([threads.load(), ...config.domains.map((d) => index(d.domain))]);
    },
    index,
    siteReports: (domain) => siteReports.get(domain) ?? [],
    threads,
    close: async () => {
      await Promise.all([threads.flush(), staticExport.close()]);
    },
  };
}
