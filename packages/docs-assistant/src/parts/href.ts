/**
 * Which links from the model may become links, and where relative doc links point.
 * Only `http(s)`, `mailto` and relative URLs pass (the same policy as react-markdown's
 * `defaultUrlTransform`, minus the chat protocols a docs answer never needs).
 */

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

// Parsing against a throwaway base lets the URL parser do the normalising (it strips tabs,
// newlines and leading control characters, which is how `java\tscript:` tricks get past regexes).
const PROBE_BASE = 'https://docs-assistant.invalid/';

/** Whether `href` is an `http(s)`, `mailto` or relative URL. */
export function isSafeHref(href: string): boolean {
  if (typeof href !== 'string') return false;
  const trimmed = href.trim();
  if (!trimmed) return false;
  try {
    return SAFE_PROTOCOLS.has(new URL(trimmed, PROBE_BASE).protocol);
  } catch {
    return false;
  }
}

/** Whether `href` names its own scheme (`https://…`, `mailto:…`) or host (`//cdn…`). */
function isAbsolute(href: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//');
}

/** The page's origin, when there is a page with an http(s)-like origin. */
export function currentOrigin(): string | undefined {
  return typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null'
    ? window.location.origin
    : undefined;
}

/**
 * Makes the `resolveHref` the part renderers take.
 *
 * - Absolute `http(s)` and `mailto` links are kept (normalised).
 * - Relative links resolve against the docs site. The base is the docs root, so with
 *   `https://acme.com/docs` a search result path `/guides/x` becomes
 *   `https://acme.com/docs/guides/x` (and `/docs/guides/x` is not doubled).
 * - A fragment-only link (`#install`) is kept as is: it points into the page being read.
 * - Anything else (`javascript:`, `data:`, `vbscript:`, garbage) resolves to `null`.
 *
 * @param docsBaseUrl Absolute `http(s)` URL of the docs site. @default the page's origin
 *   (when there is no page, relative links stay relative).
 */
export function createHrefResolver(docsBaseUrl?: string): (href: string) => string | null {
  const base = docsBaseUrl ?? currentOrigin();
  let root: URL | undefined;
  if (base !== undefined) {
    try {
      root = new URL(base);
    } catch {
      root = undefined;
    }
    if (!root || (root.protocol !== 'http:' && root.protocol !== 'https:')) {
      throw new TypeError(
        `createHrefResolver: docsBaseUrl must be an absolute http(s) URL such as "https://docs.example.com", got ${JSON.stringify(base)}.`,
      );
    }
    if (!root.pathname.endsWith('/')) root.pathname = `${root.pathname}/`;
    root.search = '';
    root.hash = '';
  }

  return (href) => {
    if (!isSafeHref(href)) return null;
    const trimmed = href.trim();
    if (trimmed.startsWith('#')) return trimmed;
    if (isAbsolute(trimmed)) {
      try {
        return new URL(trimmed, root ?? PROBE_BASE).href;
      } catch {
        return null;
      }
    }
    if (!root) return trimmed;
    let relative = trimmed;
    if (relative.startsWith('/')) {
      // Root-relative paths are relative to the docs root, unless they already include its path.
      const rootPath = root.pathname;
      relative = rootPath !== '/' && `${relative}/`.startsWith(rootPath) ? relative : `.${relative}`;
    }
    try {
      return new URL(relative, root).href;
    } catch {
      return null;
    }
  };
}

/** The resolver used when none is given: safe links are kept as written, unsafe ones dropped. */
export const keepSafeHref = (href: string): string | null => (isSafeHref(href) ? href.trim() : null);

/**
 * Whether a resolved link leaves the docs site (and so opens in a new tab): an `http(s)` link whose
 * origin is not the origin `resolveHref` gives the docs root. `mailto:` and fragments stay.
 */
export function createIsExternal(resolveHref: (href: string) => string | null): (href: string) => boolean {
  let docsOrigin: string | undefined;
  try {
    const root = resolveHref('/');
    docsOrigin = root && /^https?:/i.test(root) ? new URL(root).origin : undefined;
  } catch {
    docsOrigin = undefined;
  }
  return (href) => {
    if (!/^https?:\/\//i.test(href)) return false;
    try {
      return new URL(href).origin !== docsOrigin;
    } catch {
      return true;
    }
  };
}
