/**
 * Development-only warnings. `process.env.NODE_ENV` is replaced by the host's bundler (Vite,
 * webpack, Next), which matches that exact expression, so it is written out in full; where nothing
 * replaces it and there is no `process` (a plain browser build), the reference throws and we stay
 * quiet, as in production.
 */

// The package's own build has no Node types (it ships to browsers); this is all it reads of Node's
// `process`, and it is declared here, in this module only, rather than pulling Node's globals in.
declare const process: { env: { NODE_ENV?: string } };

export function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    return false;
  }
}

const warned = new Set<string>();

/** Warns once per key, in development only. */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key) || !isDevelopment()) return;
  warned.add(key);
  console.warn(`docs-assistant: ${message}`);
}
