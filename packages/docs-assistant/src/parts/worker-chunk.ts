/**
 * The Markdown worker's script where the host's bundler left the worker's URL as the library
 * wrote it: esbuild does not bundle workers, so `new URL('./markdown-worker.js', import.meta.url)`
 * names a file its output does not have (the package run unbundled has it, and works here too).
 * This module's own chunk, which every bundler emits for the dynamic import in
 * `parse-off-thread.ts`, is the script instead. On the page it only names its URL; started as a
 * worker, it loads the worker's code (`markdown-worker.ts`, with the parser, in chunks of their own)
 * and hands it the messages that arrived first.
 */
export const workerScript: string = import.meta.url;

if ('WorkerGlobalScope' in globalThis) {
  const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null };
  const early: MessageEvent[] = [];
  scope.onmessage = (event) => void early.push(event);
  // `document` first, in a chunk of its own: a bundler that splits the worker's code may put the
  // parser, which needs it as it loads, in a chunk that runs before the worker's own module (esbuild).
  import('./worker-dom.js')
    .then(() => import('./markdown-worker.js'))
    .then(
      () => {
        for (const event of early) scope.onmessage?.(event);
      },
      // Thrown from a task of its own, the error reaches the page as the worker's (`onerror`).
      (error: unknown) =>
        setTimeout(() => {
          throw error;
        }),
    );
}
