import { memo, useContext } from 'react';
import { useLabels } from '../labels/index.js';
import { sameContext, sameFilePart } from './equality.js';
import { createImagePolicy, ImagePolicyContext } from './image-policy.js';
import type { FilePartProps } from './types.js';

// A media type as RFC 6838 spells it; anything else could smuggle parameters into the data URL.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * The only files shown inline: raster images, which a browser decodes as pixels and nothing else.
 * SVG is left out on purpose: it is a document that can hold links and scripts.
 */
const RASTER_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

// The v4 stream carries file data base64-encoded (`k:` parts); anything else is not shown as an image.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function safeMediaType(mimeType: unknown): string {
  return typeof mimeType === 'string' && MEDIA_TYPE.test(mimeType)
    ? mimeType.toLowerCase()
    : 'application/octet-stream';
}

/**
 * The default file renderer. Raster images (png, jpeg, gif, webp, avif) are shown inline from a
 * `data:` URL (unless `allowedImageOrigins` leaves out `'data:'`), the only place besides Markdown
 * images a `data:` URL is ever used. Any other file shows its media type as
 * text, with no link: a `data:` or `blob:` link to model output could open HTML or SVG as a page
 * (a `blob:` one even on the host's origin), and answers only link to http(s), mailto and relative
 * URLs.
 */
export const FilePart = memo(
  function FilePart({ part, resolveHref }: FilePartProps) {
    const labels = useLabels();
    const imageAllowed = useContext(ImagePolicyContext) ?? createImagePolicy(undefined, resolveHref);
    const mediaType = safeMediaType(part.mimeType);
    const data = typeof part.data === 'string' ? part.data : '';
    if (
      RASTER_IMAGE_TYPES.has(mediaType) &&
      data &&
      BASE64.test(data) &&
      // `allowedImageOrigins` without 'data:' turns these off too.
      imageAllowed(`data:${mediaType};base64,`)
    ) {
      const alt = labels.imageAlt(mediaType);
      return <img src={`data:${mediaType};base64,${data}`} alt={alt} data-file="" />;
    }
    return (
      <span data-file="" data-media-type={mediaType}>
        {mediaType}
      </span>
    );
  },
  (prev, next) => sameFilePart(prev.part, next.part) && sameContext(prev, next),
);
FilePart.displayName = 'FilePart';
