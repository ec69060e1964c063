/**
 * The widget's one `warnOnce`: a problem the page's developer should hear about, said once per key
 * with one prefix. In `chat/` because both the chat layer (storage that cannot be used) and the
 * part renderers (a part no renderer shows) warn, and parts may import chat, not the other way.
 */

// The package's own build has no Node types (it ships to browsers); this is all it reads of Node's
// `process`, and it is declared here, in this module only, rather than pulling Node's globals in.
declare const process: { env: { NODE_ENV?: string } };

/**
 * Whether this is a development build. `process.env.NODE_ENV` is replaced by the host's bundler
 * (Vite, webpack, Next), which matches that exact expression, so it is written out in full; where
 * nothing replaces it and there is no `process` (a plain browser build), the reference throws and
 * we stay quiet, as in production.
 */
export function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    return false;
  }
}

const warned = new Set<string>();

/**
 * Warns once per key. `developmentOnly`: a mistake of the page's code (an unknown part type), said
 * only while it is being developed; without it the warning is about the reader's browser (storage
 * refused or full) and is said in production too.
 */
export function warnOnce(key: string, message: string, developmentOnly = false): void {
  if (warned.has(key) || (developmentOnly && !isDevelopment())) return;
  warned.add(key);
  console.warn(`[docs-assistant] ${message}`);
}
