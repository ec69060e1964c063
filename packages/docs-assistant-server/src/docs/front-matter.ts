/**
 * Front matter: the one parser every reader of a page uses (the index, the Markdown for agents,
 * the static export). Error policy, the same everywhere: a page whose front matter is not valid
 * YAML, or is not a mapping, is still read, without its front matter, and `error` says what is
 * wrong and on which line of the file; the loader passes that on as a warning naming the file
 * (`guides/setup.md:3: …`). One bad page never stops a start, a re-index or an export.
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** Set when a front matter block was there but could not be read (the page is still read). */
  error?: string;
  /** The line of the file the error is on (1 is the opening `---`). */
  errorLine?: number;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits the front matter off a page's source; never throws (see the error policy above). */
export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  const body = text.slice(match[0].length);
  const flat = flatFrontMatter(match[1] ?? '');
  if (flat) return { data: flat, body };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    // The YAML's own line, counted from the line after the opening `---`.
    const line = error instanceof YAMLParseError ? error.linePos?.[0]?.line : undefined;
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    return { data: {}, body, error: `not valid YAML: ${reason}`, errorLine: (line ?? 1) + 1 };
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { data: {}, body, error: 'not a mapping of `key: value` lines', errorLine: 2 };
  }
  return { data: data as Record<string, unknown>, body };
}

/** The warning for a page's front matter error: `guides/setup.md:3: front matter … (read without it)`. */
export function frontMatterWarning(file: string, front: FrontMatter): string | undefined {
  if (!front.error) return undefined;
  return `${file}:${front.errorLine ?? 1}: front matter is ${front.error}; the page is read without it`;
}

// One `key: value` line of flat front matter; the value a plain or simply quoted string.
const FLAT_LINE =
  /^([A-Za-z_][\w-]*):[ \t]+(?:"([^"\\]*)"|'([^']*)'|([^\s"'#&*!|>%@`{}[\],?:-][^#]*?))[ \t]*$/;
// Plain values YAML reads as something other than a string (null, booleans, numbers, `.inf`…).
const NOT_A_STRING =
  /^(~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/;

/**
 * Front matter that is only `key: string` lines (most docs pages: a title, a description), read
 * without the YAML parser, which took half a second per 10,000 pages. `undefined` for anything
 * else (nesting, lists, numbers, booleans, comments, a repeated key…): the YAML parser reads it.
 */
function flatFrontMatter(yaml: string): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (const line of yaml.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const match = FLAT_LINE.exec(line);
    if (!match) return undefined;
    const key = match[1]!;
    const plain = match[4];
    // A plain value holding ": " or " #" means more to YAML than a string.
    if (plain !== undefined && (NOT_A_STRING.test(plain) || plain.includes(': ') || plain.endsWith(':')))
      return undefined;
    if (Object.hasOwn(data, key) || key === '__proto__') return undefined;
    data[key] = match[2] ?? match[3] ?? plain!;
  }
  return data;
}
