import { memo } from 'react';
import { defaultLabels, useLabels } from '../labels';
import { sameContext, sameFilePart } from './equality';
import type { FilePartProps } from './types';

// A media type as RFC 6838 spells it; anything else could smuggle parameters into the data URL.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

function safeMediaType(mimeType: string): string {
  return MEDIA_TYPE.test(mimeType) ? mimeType.toLowerCase() : 'application/octet-stream';
}

/** `image/svg+xml` → `file.svg`; the browser only needs a reasonable name to save under. */
function fileNameFor(mediaType: string): string {
  const subtype = mediaType.split('/')[1] ?? 'bin';
  const extension =
    subtype
      .split('+')[0]!
      .replace(/^x-/, '')
      .replace(/[^a-z0-9]/gi, '') || 'bin';
  return `file.${extension}`;
}

/** The default file renderer: images inline, anything else as a download link. */
export const FilePart = memo(
  function FilePart({ part }: FilePartProps) {
    const labels = useLabels();
    const mediaType = safeMediaType(part.mimeType);
    // The v4 stream carries file data base64-encoded (`k:` parts).
    const url = `data:${mediaType};base64,${part.data}`;
    if (mediaType.startsWith('image/')) {
      const alt = (labels.imageAlt ?? defaultLabels.imageAlt!)(mediaType);
      return <img src={url} alt={alt} data-file="" />;
    }
    return (
      <a href={url} download={fileNameFor(mediaType)} data-file="">
        {(labels.downloadFile ?? defaultLabels.downloadFile!)(mediaType)}
      </a>
    );
  },
  (prev, next) => sameFilePart(prev.part, next.part) && sameContext(prev, next),
);
FilePart.displayName = 'FilePart';
