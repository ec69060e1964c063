/**
 * The reference service: a standard fetch handler (Hono inside) that answers the spec's endpoints
 * over folders of Markdown/MDX docs. Runs under Node (`@hono/node-server`), in tests in-process,
 * and as a mock `fetch` wherever a `Request` can be made.
 */
import type { Hono } from 'hono';
import { mountAgentRoutes } from './agents/routes.js';
import { createAssistantApp } from './app.js';
import type { AssistantRuntime } from './assistant.js';
import type { ServiceConfig } from './config.js';
import { checkSiteUrl } from './docs/sites/published.js';
import { mountEmbedRoutes } from './embed.js';
import { createExtractiveEngine } from './engines/extractive.js';
import { createOpenAIEngine } from './engines/openai.js';
import type { AnswerEngine } from './engines/types.js';
import { InsightsRecorder } from './insights/record.js';
import { DEFAULT_ASSISTANT_LIMITS } from './limits.js';
import { mountMcpRoutes } from './mcp/http.js';
import { type AssistantServiceOptions, resolveServiceConfig } from './options.js';
import { StoredLimiter } from './rate-limit.js';
import type { DocsIndex, SiteReport } from './retrieval/index.js';
import { type IndexBuild, PersistedDocsIndex } from './retrieval/persist.js';
import { createStaticExportRoutes } from './static-export/routes.js';
import { createStorage, migrateJobFiles, migrateThreadsJsonl } from './storage/index.js';
import type { SqlStorage } from './storage/sql.js';
import { insightsStorage, type Storage, StorageUnavailableError } from './storage/types.js';
import { ThreadStore } from './threads.js';

/** How often retention sweeps run when not set. */
export const DEFAULT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export { createAssistantApp } from './app.js';
export { ASSISTANT_MESSAGE_ROUTE } from './assistant.js';
export type { AnswerEngine } from './engines/types.js';
export { type AssistantLimits, DEFAULT_ASSISTANT_LIMITS } from './limits.js';
export type { McpOptions } from './mcp/http.js';
export * from './options.js';
export { createStorage, type StorageOptions } from './storage/index.js';
export type {
  FeedbackRecord,
  JobRecord,
  Storage,
  StorageMode,
  StoredThread,
  ThreadTurn,
  Vote,
} from './storage/types.js';
export {
  BundleEvictedError,
  StorageCorruptError,
  StorageDegradedError,
  StorageFullError,
  StorageUnavailableError,
} from './storage/types.js';

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
  /** Threads, export jobs, feedback and rate limits: SQLite (memory or `dataDir`) or PostgreSQL. */
  storage: Storage;
  /** The insights recorder (docs/insights.md); absent with `insights.enabled: false`. */
  insights: InsightsRecorder | undefined;
  /** Runs one retention sweep now (it also runs every `retention.sweepIntervalMs`). */
  sweep: () => Promise<void>;
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

type Warn = (message: string) => void;

/** The storage the options name, or the one they describe (PostgreSQL, SQLite in `dataDir` or in memory). */
function storageOf(options: AssistantServiceOptions, config: ServiceConfig, warn: Warn): Storage {
  return (
    options.storage ??
    createStorage({
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      ...(config.dataDir ? { dataDir: config.dataDir } : {}),
      ...(options.memoryBundleBytes ? { memoryBundleBytes: options.memoryBundleBytes } : {}),
      warn,
    })
  );
}

/**
 * Retention: a sweep of old threads, export jobs and insights, run every `retention.sweepIntervalMs`
 * by a timer that never keeps the process alive by itself; a failed sweep (database down) is tried
 * at the next tick.
 */
function startRetention(
  options: AssistantServiceOptions,
  parts: { threads: ThreadStore; insights: InsightsRecorder | undefined; storage: Storage; warn: Warn },
): { sweep: () => Promise<void>; stop: () => void } {
  const { threads, insights, storage, warn } = parts;
  const retentionDays = options.retention?.days;
  const sweep = async () => {
    await insights
      ?.sweep()
      .catch((error: unknown) => warn(`insights retention failed: ${(error as Error).message}`));
    const result = await threads.sweep(
      retentionDays === undefined ? undefined : Date.now() - retentionDays * DAY_MS,
    );
    if (result.threadsRemoved || result.jobsRemoved) {
      warn(
        `retention sweep removed ${result.threadsRemoved} thread(s) and ${result.jobsRemoved} export job(s) from ${storage.description}`,
      );
    }
  };
  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => warn(`retention sweep failed: ${(error as Error).message}`)),
    options.retention?.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
  );
  sweeper.unref();
  return { sweep, stop: () => clearInterval(sweeper) };
}

/**
 * Each domain's docs index, built on first use, saved under `dataDir` and reused while no file
 * changed, and watched for changes with `watch`. A failed load is retried on the next request
 * instead of being cached.
 */
function domainIndexes(options: AssistantServiceOptions, config: ServiceConfig, warn: Warn) {
  const indexes = new Map<string, Promise<DocsIndex>>();
  const siteReports = new Map<string, SiteReport[]>();
  // Stops watching each domain's docs folders (`watch`); the index stores, to wait for their saves.
  const watchers = new Map<string, () => void>();
  const stores = new Set<PersistedDocsIndex>();
  const watch = (domain: string, store: PersistedDocsIndex) => {
    if (!options.watch || watchers.has(domain)) return;
    const watchOptions = typeof options.watch === 'object' ? options.watch : {};
    const onUpdate = (update: IndexBuild) => {
      indexes.set(domain, Promise.resolve(update.index));
      siteReports.set(domain, update.reports);
      options.onIndex?.(domain, update);
    };
    watchers.set(
      domain,
      store.watch({
        ...(watchOptions.debounceMs !== undefined ? { debounceMs: watchOptions.debounceMs } : {}),
        onUpdate,
      }),
    );
  };
  const load = (domain: string): Promise<DocsIndex> => {
    const entry = config.domains.find((d) => d.domain === domain);
    if (!entry) return Promise.reject(new Error(`Unknown domain "${domain}".`));
    const store = new PersistedDocsIndex({
      folders: entry.docs,
      ...(entry.site ? { site: entry.site } : {}),
      ...(config.dataDir ? { dataDir: config.dataDir } : {}),
      incremental: !!options.watch,
      warn,
    });
    stores.add(store);
    return store.open().then((build) => {
      // A --site-url at odds with the site's base path stops the start, saying what to change.
      checkSiteUrl(entry, build.index.pages);
      siteReports.set(domain, build.reports);
      options.onIndex?.(domain, build);
      watch(domain, store);
      return build.index;
    });
  };
  const index = (domain: string): Promise<DocsIndex> => {
    let built = indexes.get(domain);
    if (!built) {
      built = load(domain);
      built.catch(() => indexes.delete(domain));
      indexes.set(domain, built);
    }
    return built;
  };
  return {
    index,
    siteReports: (domain: string) => siteReports.get(domain) ?? [],
    /** Stops watching and waits for the indexes' saves. */
    close: async () => {
      for (const stop of watchers.values()) stop();
      watchers.clear();
      await Promise.all([...stores].map((store) => store.saved()));
    },
  };
}

/** `GET /health` names the storage and whether it answers; 503 while it does not. */
async function withStorageHealth(response: Response, storage: Storage): Promise<Response> {
  const health = await storage.health();
  const body = {
    ...((await response.json()) as Record<string, unknown>),
    ...(health.ok ? {} : { ok: false }),
    storage: {
      mode: storage.mode,
      reachable: health.ok,
      // Full or damaged: the service answers (200) but keeps nothing; an operator sees why here.
      ...(health.ok ? (health.degraded ? { degraded: health.degraded } : {}) : { error: health.error }),
    },
  };
  return new Response(JSON.stringify(body), { status: health.ok ? 200 : 503, headers: response.headers });
}

/**
 * Opens the storage and moves a `dataDir`'s files of older versions into it. A database that does
 * not answer is no reason not to start: the service answers 503 until it is back.
 */
async function openStorage(
  storage: Storage,
  options: AssistantServiceOptions,
  config: ServiceConfig,
  limits: { warn: Warn; maxThreadBytes: number },
): Promise<void> {
  const { warn, maxThreadBytes } = limits;
  try {
    await storage.open();
    if (config.dataDir && storage.mode === 'embedded' && !options.storage) {
      await migrateThreadsJsonl(storage as SqlStorage, config.dataDir, { warn, maxThreadBytes });
      await migrateJobFiles(storage as SqlStorage, config.dataDir, warn);
    }
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    warn(`${error.message} Requests that need it get 503 until then.`);
  }
}

export function createAssistantService(options: AssistantServiceOptions): AssistantService {
  const config = resolveServiceConfig(options);
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  const { maxThreadBytes, maxStoredBytes } = config.limits ?? DEFAULT_ASSISTANT_LIMITS;
  const storage = storageOf(options, config, warn);
  const threads = new ThreadStore({ storage, maxThreadBytes, maxStoredBytes, warn });
  // Insights (docs/insights.md): on unless `insights.enabled` is false, where the storage keeps them.
  const recordInto = options.insights?.enabled === false ? undefined : insightsStorage(storage);
  const insights = recordInto && new InsightsRecorder(recordInto, { ...options.insights, warn });
  const retention = startRetention(options, { threads, insights, storage, warn });
  const docs = domainIndexes(options, config, warn);
  const { index } = docs;

  const runtime: AssistantRuntime = {
    config,
    threads,
    engine: createEngine(options),
    limiters: {
      perOrganization: new StoredLimiter(storage, { scope: 'org', ...config.rateLimits.perOrganization }),
      perIp: new StoredLimiter(storage, { scope: 'ip', ...config.rateLimits.perIp }),
    },
    index,
    trustProxy: options.trustProxy ?? false,
    warn,
    ...(insights ? { insights } : {}),
  };

  const app = createAssistantApp(runtime);
  // `/mcp` and `/mcp/{domain}`: the search and get_page tools for agents (mcp/http.ts).
  mountMcpRoutes(app, runtime, options.mcp);
  // Static export API (spec §4.2–4.4) and its presigned downloads: server/static-export/.
  const staticExport = createStaticExportRoutes(config, { ...options.staticExport, storage });
  app.route('/', staticExport.app);
  // llms.txt, llms-full.txt and every page as Markdown (`.md`, `Accept: text/markdown`): agents/routes.ts.
  mountAgentRoutes(app, runtime);
  // `GET /embed.js` and its chunks: the widget's script build, for any static page (embed.ts).
  mountEmbedRoutes(app);

  return {
    fetch: async (request, env) => {
      const response = await app.fetch(request, env);
      const isHealth = request.method === 'GET' && new URL(request.url).pathname === '/health';
      return isHealth && response.ok ? withStorageHealth(response, storage) : response;
    },
    app,
    config,
    ready: async () => {
      const opened = openStorage(storage, options, config, { warn, maxThreadBytes });
      await Promise.all([opened, ...config.domains.map((d) => index(d.domain))]);
    },
    index,
    siteReports: docs.siteReports,
    threads,
    storage,
    insights,
    sweep: retention.sweep,
    close: async () => {
      await docs.close();
      retention.stop();
      await Promise.all([threads.flush(), staticExport.close(), insights?.close()]);
      if (!options.storage) await storage.close();
    },
  };
}
