/**
 * Development-only warnings. `process.env.NODE_ENV` is replaced by the host's bundler (Vite,
 * webpack, Next); where nothing replaces it and there is no `process` (a plain browser build), the
 * reference throws and we stay quiet, as in production.
 */
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
