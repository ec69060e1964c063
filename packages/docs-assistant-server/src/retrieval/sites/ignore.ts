/**
 * `.docsassistantignore` (and Mintlify's `.mintignore`): gitignore syntax. Supported: `#` comments,
 * blank lines, `!` to re-include, a trailing `/` for folders only, a leading or inner `/` to anchor
 * a pattern at the root, `*`, `?`, `[…]` and `**`. Not supported: ignore files in sub-folders
 * (only the root's is read) and `\` escapes of leading `#` or `!`.
 */

interface Rule {
  negate: boolean;
  folderOnly: boolean;
  pattern: RegExp;
}

/** A glob of one rule to a regular expression over a whole relative path. */
function globToRegExp(glob: string, anchored: boolean): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        // `**/` is any number of folders, a trailing `/**` everything inside.
        if (glob[i + 2] === '/') {
          source += '(?:.*/)?';
          i += 2;
        } else {
          source += '.*';
          i += 1;
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) {
        source += '\\[';
      } else {
        source += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else {
      source += char.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  // Unanchored patterns match at any depth; a match on a folder covers what is inside it.
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}(?:/.*)?$`);
}

export interface IgnoreMatcher {
  /** Whether a path (relative to the root, `/` separators) is ignored; `folder` for folders. */
  ignores(path: string, folder?: boolean): boolean;
  /** Number of rules read. */
  readonly size: number;
}

export function parseIgnore(text: string): IgnoreMatcher {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (!line || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const folderOnly = line.endsWith('/');
    if (folderOnly) line = line.slice(0, -1);
    // A slash at the start or in the middle anchors the pattern at the root (gitignore's rule).
    const anchored = line.includes('/');
    line = line.replace(/^\//, '');
    if (!line) continue;
    rules.push({ negate, folderOnly, pattern: globToRegExp(line, anchored) });
  }
  return {
    size: rules.length,
    ignores(path, folder = false) {
      let ignored = false;
      for (const rule of rules) {
        // A folder-only rule matches a file only through one of its parent folders.
        if (rule.folderOnly && !folder && !rule.pattern.test(path.slice(0, path.lastIndexOf('/') + 1 || 0)))
          continue;
        if (rule.pattern.test(path)) ignored = !rule.negate;
      }
      return ignored;
    },
  };
}
