/**
 * Markdown parsed in a Web Worker (`markdown-worker.ts`) while an answer streams, so the page's
 * main thread only turns trees into elements: parsing is most of what rendering an answer costs.
 *
 * `useWorkerTree(text)` is what a block renders from: the tree once the worker has sent it,
 * `undefined` while it is on its way (the block keeps what it showed), and `null` when this page
 * parses on its own thread. That is the case on the server, without `Worker`, when the worker cannot
 * start (not even through a `blob:` module, see `createFromAnotherOrigin`) or fails to load (a
 * Content-Security-Policy without the worker's origin), and for a text the worker could not parse.
 * A host bundler that does not bundle workers (esbuild) leaves the worker's URL as the library wrote
 * it, naming a file it did not emit: the worker then starts from a chunk it did emit
 * (`worker-chunk.ts`, see `startFromChunk`).
 * A worker that fails, or leaves a text unanswered for `ANSWER_WITHIN_MS`, wakes every block
 * waiting on it, which then parses here. `markdown.tsx` asks the worker for the blocks of an answer
 * that streams in the page, to its end; a finished answer that mounts is parsed here.
 *
 * Trees are kept by text, least recently used first out past `TREE_CHARS`; nothing waits in a
 * queue but the worker's own, which it works through in order. `subscribeToTrees` hears of every
 * tree that arrives (a view that marks itself pending while its blocks wait).
 */
import type { Root } from 'hast';
import { useCallback, useSyncExternalStore } from 'react';
import type { ParseRequest, ParseResponse } from './markdown-worker.js';

/** Most characters of Markdown whose trees are kept. */
const TREE_CHARS = 200_000;

let worker: Worker | null = null;
let unusable = false;
let nextId = 0;
/** Texts sent, by request id. */
const sent = new Map<number, string>();
/** The texts in `sent`. */
const sentTexts = new Set<string>();
/** A text's tree, or `null` when the worker could not parse it. */
const trees = new Map<string, Root | null>();
let treeChars = 0;
const listeners = new Map<string, Set<() => void>>();
const anyListeners = new Set<() => void>();

function notify(text: string): void {
  for (const listener of listeners.get(text) ?? []) listener();
}

/** The worker has sent trees back: it loaded and parses (it may still fail later). */
let answered = false;

export const workerAnswers = (): boolean => answered && !unusable;

/** The tree the worker sent for `text`, if it has (`null`: it could not parse it); asks for nothing. */
export const arrivedTree = (text: string): Root | null | undefined => trees.get(text);

/** The worker is parsing `text`: a block of that text shows an earlier one until it is done. */
export const isParsing = (text: string): boolean => sentTexts.has(text);

/** Calls `listener` whenever trees arrived (once for those of a frame), the worker failed, or the page's parser loaded. */
export function subscribeToTrees(listener: () => void): () => void {
  anyListeners.add(listener);
  return () => anyListeners.delete(listener);
}

export type ParseMarkdown = (markdown: string) => Root;

let parser: ParseMarkdown | null = null;
let loading = false;

/**
 * The Markdown parser on the page's own thread, for the widget: loaded the first time a block needs
 * it, which is only where the worker cannot parse (no `Worker`, a worker that failed to load or
 * gave up, a text it could not parse). Where the worker runs, the page never loads a second copy
 * of the parser (micromark, mdast and GFM: about 25 kB gzip): the worker's is the only one. The
 * public renderers pass the parser itself (`with-parser.tsx`) and never wait for this one.
 *
 * Returns the parser if it has loaded; else starts loading it (once at a time; a load that failed
 * is tried again by the next call) and returns `null`: the block shows what it showed, and renders
 * again when the parser is there (`subscribeToTrees` hears of it, as of a tree).
 */
export function pageParser(): ParseMarkdown | null {
  if (parser || loading) return parser;
  loading = true;
  const done = (module?: typeof import('./parse-markdown.js')) => {
    // Without a module (a chunk that did not load): nothing to render with; a later render asks again.
    loading = false;
    parser = module?.parseMarkdown ?? null;
    for (const listener of anyListeners) listener();
  };
  import('./parse-markdown.js').then(done, () => done());
  return null;
}

/** Gives up on the worker: every block waiting for it parses on the page's thread instead. */
function giveUp(): void {
  unusable = true;
  worker?.terminate();
  worker = null;
  queued = [];
  const waiting = [...sentTexts];
  sent.clear();
  sentTexts.clear();
  for (const text of waiting) notify(text);
  for (const listener of anyListeners) listener();
}

function keep(text: string, tree: Root | null): void {
  if (!trees.delete(text)) treeChars += text.length;
  trees.set(text, tree);
  for (const [old] of trees) {
    if (treeChars <= TREE_CHARS) break;
    trees.delete(old);
    treeChars -= old.length;
  }
}

/** Texts whose trees arrived since the last frame. */
const arrived = new Set<string>();

/**
 * The tree of `text` arrived since the last frame: a block of that text renders with its view's
 * next render if that comes first (the stream's next update), which is then the frame's only
 * render; the flush then finds the block showing that tree already, and React renders nothing.
 */
export const treeArrived = (text: string): boolean => arrived.has(text);

/** Where no frame comes (a background tab), trees arrived wait at most this long (ms). */
const NO_FRAME_MS = 50;
let flushing = false;
// The frame and the timer of the flush to come: whichever runs first cancels the other. A timer
// left over from an earlier flush would otherwise flush the trees of a later frame as soon as they
// arrive, between two of the stream's updates, and the page would render twice a frame.
let frame = 0;
let noFrame: ReturnType<typeof setTimeout> | undefined;

/** The blocks whose trees arrived render once a frame, together, not once per tree. */
function flush(): void {
  if (!flushing) return;
  flushing = false;
  cancelAnimationFrame(frame);
  clearTimeout(noFrame);
  const texts = [...arrived];
  arrived.clear();
  for (const text of texts) notify(text);
  for (const listener of anyListeners) listener();
}

function scheduleFlush(): void {
  if (flushing) return;
  flushing = true;
  frame = requestAnimationFrame(flush);
  noFrame = setTimeout(flush, NO_FRAME_MS);
}

function receive({ data }: MessageEvent<ParseResponse[]>): void {
  answered = true;
  for (const response of data) {
    const text = sent.get(response.id);
    if (text === undefined) continue;
    sent.delete(response.id);
    sentTexts.delete(text);
    keep(text, 'tree' in response ? response.tree : null);
    arrived.add(text);
  }
  scheduleFlush();
}

/** Texts asked for since the last message to the worker: they go together, at the end of the task. */
let queued: ParseRequest[] = [];

/** A worker that has not answered a text by then is taken to be stuck (ms). */
const ANSWER_WITHIN_MS = 10_000;

function sendQueued(): void {
  const requests = queued;
  queued = [];
  if (!worker || requests.length === 0) return;
  worker.postMessage(requests);
  const first = requests[0]!.id;
  setTimeout(() => {
    if (sent.has(first)) giveUp();
  }, ANSWER_WITHIN_MS);
}

// Vite, webpack, Rspack and Next.js bundle the worker from this exact form, `new Worker` on the
// global `Worker`. The library build keeps it as written, naming the built file (`vite.config.ts`,
// `keepWorkerUrl`).
const create = () =>
  new Worker(new URL('./markdown-worker.ts', import.meta.url), {
    type: 'module',
    name: 'docs-assistant markdown',
  });

/** The worker's file as the library build names it, beside this module (see `create`). */
const AS_WRITTEN = './markdown-worker.js';
/** This module's URL; a name of its own, so that no bundler takes `new URL(…)` below for an asset. */
const HERE = import.meta.url;

/** A module of the page's own origin (a `blob:` URL) that imports the script at `url`. */
const trampoline = (url: string) =>
  URL.createObjectURL(new Blob([`import ${JSON.stringify(url)};`], { type: 'text/javascript' }));

/**
 * Runs `create` with the global `Worker` replaced by `Stand` (`create` names the global: for this
 * call only, the class given).
 */
function createWith(Stand: typeof Worker): Worker {
  const Native = globalThis.Worker;
  globalThis.Worker = Stand;
  try {
    return create();
  } finally {
    globalThis.Worker = Native;
  }
}

/**
 * Whether the host's bundler left the worker's URL as the library wrote it (esbuild, which
 * bundles no worker, or no bundler at all): those that bundle the worker give it the URL of
 * their own file.
 */
function leftAsWritten(): boolean {
  let url = '';
  try {
    createWith(
      class {
        constructor(given: string | URL) {
          url = String(given);
          throw new Error('only the URL was wanted');
        }
      } as unknown as typeof Worker,
    );
  } catch {
    // Expected: nothing was started.
  }
  return url === new URL(AS_WRITTEN, HERE).href;
}

/**
 * A worker whose script is on another origin (the script build served from the assistant's host
 * to a docs site elsewhere, a host's chunks on a CDN) cannot be started from its URL; a module of
 * the page's own origin that imports it can, the import fetched with CORS as the script itself is.
 */
function createFromAnotherOrigin(): Worker {
  const Native = globalThis.Worker;
  return createWith(
    class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(trampoline(String(url)), options);
      }
    },
  );
}

function listen(started: Worker): void {
  worker = started;
  started.onmessage = receive;
  started.onerror = (event) => {
    // A worker that did not load is not the host page's error.
    event.preventDefault();
    giveUp();
  };
  started.onmessageerror = giveUp;
}

/** The worker's script is being found (`startFromChunk`): texts asked for wait in `sent`. */
let pending = false;

/**
 * Starts the worker from `worker-chunk.ts`'s chunk, which every bundler emits, where the bundler
 * left the worker's own URL pointing at a file it did not emit. Texts asked for meanwhile are sent
 * once it runs.
 */
function startFromChunk(): void {
  pending = true;
  const failed = () => {
    pending = false;
    giveUp();
  };
  import('./worker-chunk.js').then(({ workerScript }) => {
    pending = false;
    if (unusable) return;
    const options: WorkerOptions = { type: 'module', name: 'docs-assistant markdown' };
    try {
      try {
        listen(new Worker(workerScript, options));
      } catch {
        listen(new Worker(trampoline(workerScript), options));
      }
    } catch {
      failed();
      return;
    }
    queued = [...sent].map(([id, text]) => ({ id, text }));
    sendQueued();
  }, failed);
}

/** Whether a worker runs or is on its way; starts it if neither. */
function start(): boolean {
  if (worker || pending) return true;
  if (unusable) return false;
  try {
    if (leftAsWritten()) startFromChunk();
    else {
      try {
        listen(create());
      } catch {
        listen(createFromAnotherOrigin());
      }
    }
    return true;
  } catch {
    unusable = true;
    return false;
  }
}

/** The tree of `text` if the worker has sent it; asks for it if not (see `useWorkerTree`). */
function treeOf(text: string): Root | null | undefined {
  const tree = trees.get(text);
  if (tree !== undefined) return tree;
  if (typeof Worker === 'undefined' || typeof window === 'undefined') return null;
  if (!start()) return null;
  if (!sentTexts.has(text)) {
    const id = nextId++;
    sent.set(id, text);
    sentTexts.add(text);
    if (queued.push({ id, text }) === 1) queueMicrotask(sendQueued);
  }
  return undefined;
}

/**
 * The worker's tree of `text` (`null`: parse it on the page; `undefined`: on its way, asked for
 * now if it was not), as `useWorkerTree` gives it, without subscribing.
 */
export const requestTree = (text: string): Root | null | undefined =>
  trees.get(text) ?? (unusable ? null : treeOf(text));

/** What the worker is first asked to parse. */
const WARM_UP_TEXT = '*a*';

/**
 * Starts the worker ahead of the first answer, before a question is asked (the panel calls it when
 * the page is idle): its script loads and it answers a first text, so an answer's first blocks do
 * not wait for the load, and starting it is not part of an answer's frames. Where the worker
 * cannot run, this finds out and loads the page's parser, and the answer is parsed on the page from
 * its start.
 */
export function warmUp(): void {
  if (typeof window === 'undefined' || trees.has(WARM_UP_TEXT)) return;
  // No worker here: the page's own parser loads instead, ahead of the first answer too.
  if (treeOf(WARM_UP_TEXT) === null) pageParser();
}

const parseHere = () => null;
/** For `useSyncExternalStore` where there is nothing to hear of. */
export const subscribeToNothing = () => () => {};

/**
 * The worker's tree of `text` (`null`: parse it here; `undefined`: on its way). `null` as the text
 * asks for nothing: the caller parses on its own thread.
 */
export function useWorkerTree(text: string | null): Root | null | undefined {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (text === null) return () => {};
      const set = listeners.get(text) ?? new Set();
      listeners.set(text, set.add(listener));
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(text);
      };
    },
    [text],
  );
  return useSyncExternalStore(
    text === null ? subscribeToNothing : subscribe,
    () => (text === null ? null : requestTree(text)),
    parseHere,
  );
}
