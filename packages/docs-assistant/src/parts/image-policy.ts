/**
 * Which images from model output may load. An `<img>` fetches as soon as it renders, with no click:
 * an answer steered by a prompt-injected page could put the reader's question or selected context
 * in an image URL on a third party's server. So an image loads only from an allowed origin (by
 * default the docs site's own) or from a `data:` URL of a raster image (no request at all);
 * anything else is shown as a link the reader may follow.
 */
import { createContext } from 'react';
import { currentOrigin } from './href.js';

/** The `allowedImageOrigins` entry that allows `data:` URLs of raster images. */
export const DATA_IMAGES = 'data:';

/** Whether an image from model output may load from `src` (an URL `resolveHref` has resolved). */
export type ImagePolicy = (src: string) => boolean;

// Raster types only: a browser decodes them as pixels and nothing else (SVG is a document).
const DATA_RASTER_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]*={0,2}$/i;

/** Whether `src` is a base64 `data:` URL of a png, jpeg, gif, webp or avif image. */
export function isDataRasterImage(src: string): boolean {
  return typeof src === 'string' && DATA_RASTER_IMAGE.test(src);
}

/** The origin `resolveHref` resolves the docs root to, else the page's. */
function docsOrigin(resolveHref: (href: string) => string | null): string | undefined {
  try {
    const root = resolveHref('/');
    if (root && /^https?:\/\//i.test(root)) return new URL(root).origin;
  } catch {
    // A resolver that throws has no root: the page's origin stands in.
  }
  return currentOrigin();
}

/** `https://cdn.example.com` as the URL parser spells its origin; throws for anything else. */
function parseOrigin(entry: unknown): string {
  // `new URL` takes "https://cdn.example.com:443/" too; its origin is the canonical spelling.
  if (entry === DATA_IMAGES) return DATA_IMAGES;
  let url: URL | undefined;
  try {
    url = typeof entry === 'string' ? new URL(entry) : undefined;
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    throw new TypeError(
      `allowedImageOrigins: ${JSON.stringify(entry)} is not an origin. List origins as scheme, host and port only, e.g. "https://cdn.example.com" or "http://localhost:3000" (no path), or "${DATA_IMAGES}" for data: images.`,
    );
  }
  return url.origin;
}

/**
 * Checks `allowedImageOrigins` and returns its origins as the URL parser spells them.
 * @throws TypeError naming the first entry that is not an origin or `'data:'`.
 */
export function parseAllowedImageOrigins(allowedImageOrigins: readonly string[]): string[] {
  // Not an array: reported as the whole value not being an origin.
  return Array.isArray(allowedImageOrigins)
    ? allowedImageOrigins.map(parseOrigin)
    : [parseOrigin(allowedImageOrigins)];
}

/**
 * The image policy for `allowedImageOrigins`, or without it for the default: the docs site's origin
 * (what `resolveHref` resolves `/` to, else the page's) and `data:` raster images. A relative `src`
 * counts as the docs site's.
 * @throws TypeError for an entry that is not an origin (see `parseAllowedImageOrigins`).
 */
export function createImagePolicy(
  allowedImageOrigins: readonly string[] | undefined,
  resolveHref: (href: string) => string | null,
): ImagePolicy {
  const own = docsOrigin(resolveHref);
  const allowed = new Set(
    allowedImageOrigins === undefined
      ? [...(own ? [own] : []), DATA_IMAGES]
      : parseAllowedImageOrigins(allowedImageOrigins),
  );
  return (src) => {
    if (typeof src !== 'string') return false;
    if (src.startsWith('data:')) return allowed.has(DATA_IMAGES) && isDataRasterImage(src);
    let url: URL;
    try {
      url = new URL(src, own ?? 'https://docs-assistant.invalid/');
    } catch {
      return false;
    }
    return (url.protocol === 'http:' || url.protocol === 'https:') && allowed.has(url.origin);
  };
}

/**
 * The policy of the conversation being rendered (`MessageParts` provides it); `null` lets each
 * `Markdown` use the default for its own `resolveHref`.
 */
export const ImagePolicyContext = createContext<ImagePolicy | null>(null);
