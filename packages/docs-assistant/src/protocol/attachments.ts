/**
 * Attachments (spec §2.2 `experimental_attachments`): the types a reader may attach and the data
 * URLs they travel in, shared by the widget's attachments view and the reference service. Only the
 * lazily loaded attachments view imports it in the widget, so the launcher and the panel do not
 * carry it; the limits themselves are in `limits.ts`.
 */

/** Images a reader may attach: the raster formats every model that reads images accepts. */
export const ATTACHMENT_IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/** Text types outside `text/*` that are still text (configs, data, scripts). */
const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/javascript',
  'application/typescript',
  'application/x-sh',
  'application/sql',
  'application/graphql',
]);

/**
 * Extensions of text and code files whose type browsers often leave empty or get wrong (a `.ts`
 * file comes as `video/mp2t`): such a file is attached as `text/plain`.
 */
const TEXT_EXTENSIONS = new Set(
  (
    'txt md mdx markdown rst adoc csv tsv log json jsonc json5 yaml yml toml ini cfg conf env xml html css scss ' +
    'js mjs cjs jsx ts mts cts tsx vue svelte astro py rb go rs java kt kts scala swift c h cc cpp hpp cs fs php ' +
    'pl lua r dart ex exs erl hs clj sh bash zsh fish ps1 bat sql graphql gql proto tf hcl gradle properties diff patch'
  ).split(' '),
);

/** Whether an attachment's content type is text the service can read as context. */
export function isTextAttachmentType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type);
}

/**
 * The content type a file is attached with, or `null` when it is neither an accepted image nor a
 * text or code file. `type` is what the browser said (`File.type`, maybe empty).
 */
export function attachmentContentType(name: string, type: string): string | null {
  const given = type.split(';')[0]!.trim().toLowerCase();
  if (ATTACHMENT_IMAGE_TYPES.includes(given) || (given && isTextAttachmentType(given))) return given;
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  return TEXT_EXTENSIONS.has(extension) ? 'text/plain' : null;
}

/** `data:<type>[;charset=…];base64,<data>`: the only form of attachment URL the service accepts. */
export interface DataUrl {
  contentType: string;
  /** The base64 text after the comma. */
  base64: string;
  /** Bytes the base64 text decodes to. */
  bytes: number;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,/i;

/** The parts of a base64 data URL, or `null` for anything else (a URL, a data URL not in base64). */
export function parseDataUrl(url: string): DataUrl | null {
  const head = DATA_URL.exec(url.slice(0, 512));
  if (!head) return null;
  const base64 = url.slice(head[0].length);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  return { contentType: head[1]!.toLowerCase() || 'text/plain', base64, bytes };
}

/** "5 MB": a byte count as readers read it (1 MB = 1,048,576 bytes, as the limits count). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
