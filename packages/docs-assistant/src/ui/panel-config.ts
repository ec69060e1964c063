/**
 * The panel's own options checked once each: `docsBaseUrl` (the links' base) and
 * `allowedImageOrigins`. A bad value is a config error that says which value to change, logged
 * once; the panel then shows it in place of the conversation.
 */
import { useEffect, useMemo } from 'react';
import type { AssistantError } from '../chat/types.js';
import { createHrefResolver, parseAllowedImageOrigins } from '../parts/index.js';

const configError = (detail: string): AssistantError => ({
  kind: 'config',
  message: detail,
  detail,
  retryable: false,
});

function useLogged(error: AssistantError | null): void {
  useEffect(() => {
    if (error?.detail) console.error(`[docs-assistant] ${error.detail}`);
  }, [error]);
}

/** The docs link resolver, or (for a `docsBaseUrl` that is no URL) a config error saying so. */
export function useHrefResolver(
  docsBaseUrl: unknown,
): [(href: string) => string | null, AssistantError | null] {
  const [resolver, error] = useMemo((): [(href: string) => string | null, AssistantError | null] => {
    try {
      return [createHrefResolver(docsBaseUrl as string | undefined), null];
    } catch {
      // Also reached without docsBaseUrl on a page whose own address is not http(s).
      return [
        fallbackResolver(),
        configError(
          `docsBaseUrl ${JSON.stringify(docsBaseUrl)} is not an absolute http(s) URL: pass the docs site's address, e.g. "https://docs.example.com".`,
        ),
      ];
    }
  }, [docsBaseUrl]);
  useLogged(error);
  return [resolver, error];
}

/**
 * `allowedImageOrigins` checked once (keyed on its text, as hosts pass arrays inline), or, for an
 * entry that is no origin, no images at all and a config error saying which entry to fix.
 */
export function useImageOrigins(allowed: unknown): [string[] | undefined, AssistantError | null] {
  const key = Array.isArray(allowed) ? JSON.stringify(allowed) : allowed;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the array's contents
  const [origins, error] = useMemo((): [string[] | undefined, AssistantError | null] => {
    if (allowed === undefined) return [undefined, null];
    try {
      return [parseAllowedImageOrigins(allowed as string[]), null];
    } catch (cause) {
      return [[], configError((cause as Error).message)];
    }
  }, [key]);
  useLogged(error);
  return [origins, error];
}

/** Links against this page's own site, or none where even that is no http(s) address. */
function fallbackResolver(): (href: string) => string | null {
  try {
    return createHrefResolver();
  } catch {
    return () => null;
  }
}
