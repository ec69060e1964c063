/** The existing page paths nearest a path that names none, for `get_page`'s error. */

/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

const lastSegment = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * The `count` paths of `paths` nearest `wanted`. The page's own name weighs most (a page moved to
 * another folder, or misspelt), then the whole path (a sibling in the same folder).
 */
export function closestPaths(paths: readonly string[], wanted: string, count: number): string[] {
  const target = wanted.toLowerCase();
  const name = lastSegment(target);
  return paths
    .map((path) => {
      const lower = path.toLowerCase();
      return { path, distance: editDistance(name, lastSegment(lower)) + 0.5 * editDistance(target, lower) };
    })
    .sort((a, b) => a.distance - b.distance || a.path.localeCompare(b.path))
    .slice(0, count)
    .map(({ path }) => path);
}
