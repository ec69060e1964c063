/**
 * No dead modules: every source file of both packages is reached, through its imports (types
 * included), from something users run: a package export, a build entry, the CLI, or the Storybook
 * mock service. A module nothing reaches is read, kept and tested for nobody.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGES, ROOT, sourceFiles } from './source-graph.ts';

const W = `${PACKAGES.widget}/`;
const S = `${PACKAGES.server}/`;

/** What users run. The widget's `exports` are checked against this list below. */
const ENTRIES = [
  ...['index.ts', 'widget.ts', 'protocol/entry.ts', 'static-export/index.ts', 'static-export/react.ts'].map(
    (path) => W + path,
  ),
  // docs-assistant/insights (the handler) and docs-assistant/insights/react (the dashboard panel).
  `${W}insights/index.ts`,
  `${W}insights/react.ts`,
  `${W}proxy/index.ts`,
  `${W}labels/de.ts`,
  `${W}labels/ar.ts`,
  `${W}embed/index.ts`,
  // Build entries of `packages/docs-assistant/vite.config.ts`: the hook and renderers `index.ts`
  // re-exports, the Markdown worker (started with `new Worker(new URL(…))`) and the stylesheet.
  `${W}headless.ts`,
  `${W}parts/markdown-worker.ts`,
  `${W}styles/entry.ts`,
  // The service's package entry and its `bin`.
  `${S}index.ts`,
  `${S}cli.ts`,
  // The service without Node built-ins, which Storybook's stories run as their mock `fetch`.
  `${S}in-memory.ts`,
];

/** Modules nothing reaches today, in code another engineer is rewriting this round. */
const KNOWN_UNREACHED = [
  // A barrel that no entry imports (F is deciding the collectors' public face).
  { path: `${W}context/index.ts`, owner: 'F' },
];

const files = sourceFiles();

function reached(): Set<string> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const seen = new Set(ENTRIES);
  const queue = [...ENTRIES];
  while (queue.length > 0) {
    for (const spec of byPath.get(queue.pop()!)?.imports ?? []) {
      if (spec.target && !seen.has(spec.target)) {
        seen.add(spec.target);
        queue.push(spec.target);
      }
    }
  }
  return seen;
}

describe('entries', () => {
  it("lists every export of the widget's package.json", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages/docs-assistant/package.json'), 'utf8'));
    const typed = Object.values(manifest.exports as Record<string, string | { types?: string }>)
      .flatMap((target) => (typeof target === 'object' && target.types ? [target.types] : []))
      .map((types) => types.replace('./dist/types/', W).replace(/\.d\.ts$/, '.ts'));
    expect(typed.length).toBeGreaterThan(5);
    expect(typed.filter((path) => !ENTRIES.includes(path))).toEqual([]);
  });

  it('reach every source module, besides the known ones being rewritten', () => {
    const seen = reached();
    const known = new Set(KNOWN_UNREACHED.map((entry) => entry.path));
    const unreached = files.map((file) => file.path).filter((path) => !seen.has(path));
    // The walk follows imports (a walk that stopped at the entries would call everything dead).
    expect(seen.size).toBeGreaterThan(files.length / 2);
    expect(unreached.filter((path) => !known.has(path))).toEqual([]);
    expect(
      KNOWN_UNREACHED.filter((entry) => !unreached.includes(entry.path)).map(
        (entry) => `${entry.path} (${entry.owner}) is reached now: delete its entry`,
      ),
    ).toEqual([]);
  });
});
