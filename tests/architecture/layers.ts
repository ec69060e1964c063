/**
 * The layers of both packages as DESIGN.md names them, as data: which files make each layer and
 * what a layer may import. Moving a folder (the service's `src/docs/` and `src/http/` this round) is
 * one edit here. A file belongs to the layer of the longest path that matches it; a path ending in
 * `/` is a folder. Imports inside one layer are free.
 *
 * `may` lists the layers a layer imports at run time (types too); `types` the layers it may only
 * name in types (erased from the JavaScript); `lazy` the layers it may load with `import()` only,
 * so they stay in chunks of their own.
 */

export interface Layer {
  name: string;
  paths: string[];
  may: string[];
  types?: string[];
  lazy?: string[];
  /** Why the layer sits where it does, shown when a rule fails. */
  why: string;
}

const W = 'packages/docs-assistant/src/';
const S = 'packages/docs-assistant-server/src/';

/** The widget: `ui → parts → chat → protocol`, `context → protocol`, `views → (kit) → chat`. */
export const WIDGET_LAYERS: Layer[] = [
  { name: 'protocol', paths: [`${W}protocol/`], may: [], why: 'the wire contract imports nothing of ours' },
  { name: 'context', paths: [`${W}context/`], may: ['protocol'], why: 'collectors and their store' },
  {
    name: 'labels',
    paths: [
      `${W}labels.tsx`,
      `${W}labels-context.ts`,
      `${W}label-defaults.ts`,
      `${W}shell-labels.ts`,
      `${W}labels/`,
    ],
    may: [],
    types: ['view-labels'],
    why: 'the words of the shell, read by the layers that show them',
  },
  {
    name: 'view-labels',
    // Plain data: the defaults of each lazy view's words. Only its view imports them at run time
    // (so they load in its chunk); `Labels` takes their types.
    paths: [`${W}labels/views/`],
    may: [],
    why: "the English defaults of each lazily loaded view's words, where their meanings are written",
  },
  {
    name: 'dom',
    // Class names, a screen-reader-only style and data-attribute flags: a leaf with no run-time import.
    paths: [`${W}ui/dom.ts`],
    may: [],
    why: 'small DOM helpers every React layer uses',
  },
  {
    name: 'chat',
    paths: [`${W}chat/`],
    may: ['context', 'protocol'],
    why: 'the controller returns error kinds; the shell words them',
  },
  { name: 'events', paths: [`${W}events/`], may: ['chat', 'protocol'], why: 'event shapes and the emitter' },
  {
    name: 'parts',
    paths: [`${W}parts/`],
    may: ['chat', 'context', 'dom', 'labels', 'protocol'],
    why: 'one renderer per part type, over the conversation state',
  },
  {
    name: 'kit',
    // What the panel hands its lazily loaded views, so a view's chunk imports none of it.
    paths: [`${W}search/kit.ts`, `${W}search/features.ts`, `${W}events/feedback-slot.tsx`],
    may: ['chat', 'dom', 'events', 'labels', 'protocol'],
    lazy: ['views'],
    why: 'the panel hands these to its lazy views',
  },
  {
    name: 'views',
    paths: [`${W}views/`, `${W}search/`],
    may: ['protocol', 'view-labels'],
    types: ['chat', 'context', 'dom', 'events', 'kit', 'labels', 'parts'],
    why: 'lazily loaded views get what they run through a kit, and import types only',
  },
  {
    name: 'search',
    // `useDocsSearch` for a UI of your own: the search view's state with the widget's own kit.
    paths: [`${W}search/client.ts`, `${W}search/use-docs-search.ts`],
    may: ['chat', 'kit', 'labels', 'protocol', 'views'],
    why: 'the headless search: the search view state with the default kit',
  },
  {
    name: 'ui',
    paths: [`${W}ui/`],
    may: ['chat', 'context', 'dom', 'events', 'kit', 'labels', 'parts', 'protocol'],
    lazy: ['views'],
    types: ['views'],
    why: 'the shell loads its views on demand',
  },
  { name: 'route-kit', paths: [`${W}routes/`], may: ['protocol'], why: 'server-side route helpers' },
  {
    name: 'server-side',
    paths: [`${W}proxy/`, `${W}static-export/`, `${W}insights/`, `${W}admin/`],
    may: ['route-kit', 'protocol'],
    why: 'the proxy, the static-export client, handler and panel, the insights handler and panel, and the card both panels are drawn on',
  },
  {
    name: 'entry',
    paths: [`${W}index.ts`, `${W}widget.ts`, `${W}headless.ts`, `${W}embed/`, `${W}styles/`],
    may: [
      'chat',
      'context',
      'dom',
      'events',
      'kit',
      'labels',
      'parts',
      'protocol',
      'search',
      'server-side',
      'ui',
      'views',
    ],
    why: 'the package entries and the script-tag build put the layers together',
  },
];

/**
 * The service: `routes → docs/retrieval/storage → protocol`. A's `src/docs/` and B's `src/http/` are
 * listed ahead of their arrival, so a file moved there keeps its layer.
 */
export const SERVER_LAYERS: Layer[] = [
  {
    name: 'protocol',
    paths: [`${W}protocol/`],
    may: [],
    why: 'the widget package exports it as `docs-assistant/protocol` for the service',
  },
  {
    name: 'shared',
    paths: [`${S}limits.ts`, `${S}config.ts`],
    may: ['protocol'],
    why: 'the caps and configuration shapes every layer reads',
  },
  {
    name: 'storage',
    paths: [`${S}storage/`, `${S}threads.ts`],
    may: ['shared', 'protocol'],
    why: 'threads, jobs, feedback and counters, under any HTTP',
  },
  {
    name: 'docs',
    paths: [
      `${S}docs/`,
      `${S}retrieval/`,
      `${S}agents/`,
      `${S}static-export/render.ts`,
      `${S}static-export/markdown.ts`,
      `${S}static-export/bundle.ts`,
      `${S}static-export/bundle-reader.ts`,
      `${S}static-export/site-assets.ts`,
    ],
    may: ['shared', 'protocol'],
    why: 'reading a docs site into pages, their index and their renderings',
  },
  {
    name: 'engines',
    paths: [`${S}engines/`, `${S}static-export/jobs.ts`],
    may: ['docs', 'storage', 'shared', 'protocol'],
    why: 'answers and export jobs, made from pages and kept in storage',
  },
  {
    name: 'routes',
    paths: [
      `${S}http/`,
      `${S}app.ts`,
      `${S}assistant.ts`,
      `${S}attachments.ts`,
      `${S}rate-limit.ts`,
      `${S}embed.ts`,
      `${S}discovery/`,
      `${S}insights/`,
      `${S}mcp/`,
      `${S}agents/routes.ts`,
      `${S}agents/accept.ts`,
      `${S}static-export/routes.ts`,
      `${S}static-export/start-request.ts`,
      `${S}static-export/serve-bundle.ts`,
      `${S}static-export/signing.ts`,
    ],
    may: ['engines', 'docs', 'storage', 'shared', 'protocol', 'route-kit'],
    why: 'HTTP: requests in, the layers below, responses out',
  },
  {
    name: 'entry',
    paths: [
      `${S}index.ts`,
      `${S}service.ts`,
      `${S}in-memory.ts`,
      `${S}options.ts`,
      `${S}cli.ts`,
      `${S}cli/`,
      `${S}mcp/cli.ts`,
      `${S}static-export/cli.ts`,
    ],
    // The `export` command drives a service through the widget package's admin client.
    may: ['routes', 'engines', 'docs', 'storage', 'shared', 'protocol', 'admin-client'],
    why: 'the service and the CLI put the layers together',
  },
  {
    name: 'admin-client',
    paths: [`${W}static-export/`],
    may: [],
    why: 'the widget package exports it as `docs-assistant/static-export`',
  },
  {
    name: 'route-kit',
    paths: [`${W}proxy/`, `${W}routes/`],
    may: ['protocol'],
    why: 'the widget package exports it as `docs-assistant/proxy`: one body reader and one rate limiter for the routes of both packages',
  },
];

/** The layer of `path` (relative to the root): the longest matching path wins. */
export function layerOf(layers: Layer[], path: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const prefix of layer.paths) {
      const hit = prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix;
      if (hit && (!best || prefix.length > best.length)) best = { layer, length: prefix.length };
    }
  }
  return best?.layer;
}
