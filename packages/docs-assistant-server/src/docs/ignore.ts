/**
 * `.docsassistantignore` (and Mintlify's `.mintignore`): gitignore's syntax, through `ignore`, the
 * implementation of gitignore's rules that eslint and prettier use (comments, `!` to re-include,
 * folder-only rules, anchoring, `*`, `?`, `[…]`, `**`, `\` escapes). Only the root's ignore files
 * are read, not ignore files in sub-folders.
 */
import ignore from 'ignore';

export interface IgnoreMatcher {
  /** Whether a path (relative to the root, `/` separators) is ignored; `folder` for folders. */
  ignores(path: string, folder?: boolean): boolean;
}

/** The rules of one or more ignore files' texts, in order. */
export function parseIgnore(...texts: string[]): IgnoreMatcher {
  const rules = ignore();
  for (const text of texts) rules.add(text);
  return {
    ignores: (path, folder = false) => !!path && rules.ignores(folder ? `${path.replace(/\/$/, '')}/` : path),
  };
}
