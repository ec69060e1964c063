/**
 * Mintlify's composable `docs.json`: any value may be `{ "$ref": "./nav/fr.json" }`, replaced by
 * the referenced JSON file (its path relative to the file holding the reference, nested references
 * followed); other keys beside `$ref` override the referenced object's keys. Every file is read by
 * the docs root's rule, so a reference out of the folder is refused like a missing one.
 */
import { posix } from 'node:path';
import { docsRoot } from '../files.js';
import { isRecord } from './nav.js';

/** Reads `file` (relative to `root`) as JSON with every `$ref` in it replaced by what it names. */
export function readWithRefs(root: string, file: string): unknown {
  return resolveFile(root, file, []);
}

function resolveFile(root: string, file: string, chain: string[]): unknown {
  if (chain.includes(file)) {
    throw new Error(
      `circular $ref: ${[...chain, file].join(' → ')}; remove the "$ref" to ${file} from ${chain[chain.length - 1]}`,
    );
  }
  const text = docsRoot(root).readText(file, 'config');
  if (text === undefined) {
    const from = chain[chain.length - 1];
    throw new Error(
      from
        ? `${from} has "$ref": "${file}", which is not a file in the docs folder; fix the path (relative to ${from}) or remove the reference`
        : `${file} is not a file in the docs folder`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return resolveValue(root, json, [...chain, file]);
}

function resolveValue(root: string, value: unknown, chain: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveValue(root, item, chain));
  if (!isRecord(value)) return value;
  const here = chain[chain.length - 1]!;
  const { $ref: ref, ...rest } = value;
  const own = Object.fromEntries(Object.entries(rest).map(([key, v]) => [key, resolveValue(root, v, chain)]));
  if (ref === undefined) return own;
  if (typeof ref !== 'string' || !ref.trim() || /^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    throw new Error(`${here}: "$ref" must be a relative path to a JSON file (got ${JSON.stringify(ref)})`);
  }
  const target = posix.normalize(posix.join(posix.dirname(here), ref.trim()));
  const referenced = resolveFile(root, target, chain);
  // Keys written beside `$ref` win over the referenced object's.
  return isRecord(referenced) ? { ...referenced, ...own } : referenced;
}
