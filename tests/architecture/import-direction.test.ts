/**
 * Dependencies point one way, and this test says so (DESIGN.md, "Layout"): the layers of
 * `layers.ts` over every source file of both packages, read with TypeScript's parser
 * (`source-graph.ts`), and nothing React-free reaching React through the modules it runs.
 *
 * Violations that sit in code another engineer is rewriting this round are listed in `KNOWN`
 * with their owner; the list only shrinks: an entry that no longer breaks the rule fails too, so
 * whoever fixes it deletes the entry.
 */
import { describe, expect, it } from 'vitest';
import { type Layer, layerOf, SERVER_LAYERS, WIDGET_LAYERS } from './layers.ts';
import { type Import, PACKAGES, type SourceFile, sourceFiles } from './source-graph.ts';

interface Known {
  /** `file -> target`, both relative to the repository root. */
  edge: string;
  owner: string;
}

const W = 'packages/docs-assistant/src/';
const S = 'packages/docs-assistant-server/src/';

/** Imports that break a layer today, in code being rewritten this round. */
const KNOWN_LAYER_BREAKS: Known[] = [];

/** React-free modules that reach React today, in code being rewritten this round. */
const KNOWN_REACT_REACHES: Known[] = [];

/** Packages that are React or pull it in. */
const REACT = /^(react|react-dom|@ai-sdk\/react|preact)(\/|$)/;

function inPackage(path: string, root: string): boolean {
  return path.startsWith(`${root}/`);
}

function allowed(from: Layer, to: Layer, kind: Import['kind']): boolean {
  if (from.name === to.name || from.may.includes(to.name)) return true;
  if (kind === 'type' && from.types?.includes(to.name)) return true;
  return kind !== 'static' && !!from.lazy?.includes(to.name);
}

/** Each import of ours that breaks its package's layers, as `file -> target` with the reason. */
function layerBreaks(files: SourceFile[], root: string, layers: Layer[]) {
  const breaks: { edge: string; reason: string }[] = [];
  for (const file of files.filter((entry) => inPackage(entry.path, root))) {
    const from = layerOf(layers, file.path);
    if (!from) continue; // reported by the "every file has a layer" check
    for (const spec of file.imports) {
      if (!spec.target) continue;
      const to = layerOf(layers, spec.target);
      if (to && allowed(from, to, spec.kind)) continue;
      breaks.push({
        edge: `${file.path} -> ${spec.target}`,
        reason: to
          ? `${file.path}:${spec.line} (${from.name}: ${from.why}) imports ${spec.kind === 'static' ? '' : `(${spec.kind}) `}'${spec.specifier}' of ${to.name}`
          : `${file.path}:${spec.line} imports '${spec.specifier}', which is in no layer of this package`,
      });
    }
  }
  return breaks;
}

/** Files that import React themselves (a `.tsx` file compiles to `react/jsx-runtime` calls). */
function importsReact(file: SourceFile): boolean {
  return (
    file.path.endsWith('.tsx') ||
    file.imports.some((spec) => spec.kind !== 'type' && REACT.test(spec.specifier))
  );
}

/** The service renders the static export's pages with react-dom/server: these files, for this job. */
const EXPORT_RENDERER = [`${S}static-export/render.ts`, `${S}static-export/markdown.ts`];
const EXPORT_JOB = `${S}static-export/jobs.ts`;

/** The modules that must run without React. */
function isReactFree(path: string): boolean {
  if (path.startsWith(S)) return !EXPORT_RENDERER.includes(path);
  if ([`${W}protocol/`, `${W}routes/`, `${W}proxy/`].some((dir) => path.startsWith(dir))) return true;
  // The controller and the collectors' core; their React bindings are the `use-*` hooks.
  if ([`${W}chat/`, `${W}context/`].some((dir) => path.startsWith(dir)))
    return !/\/use-[^/]+\.ts$/.test(path);
  if (path.startsWith(`${W}static-export/`)) return !/\/(panel\.tsx|react\.ts)$/.test(path);
  return [`${W}events/types.ts`, `${W}events/emit.ts`].includes(path);
}

/** The first chain of run-time imports (static or `import()`) from `start` to a file importing React. */
function chainToReact(byPath: Map<string, SourceFile>, start: string): string[] | undefined {
  const seen = new Set([start]);
  const queue: string[][] = [[start]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const file = byPath.get(chain.at(-1)!)!;
    if (importsReact(file)) return chain;
    for (const spec of file.imports) {
      if (spec.kind === 'type' || !spec.target || seen.has(spec.target) || !byPath.has(spec.target)) continue;
      seen.add(spec.target);
      queue.push([...chain, spec.target]);
    }
  }
  return undefined;
}

/**
 * Each run-time import that takes a React-free module to React: straight to a React package, or to
 * a module outside the React-free set that reaches React. Edges inside the set are not listed, so
 * a break is named once, where it leaves the set.
 */
function reactBreaks(files: SourceFile[]): { edge: string; reason: string }[] {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const breaks: { edge: string; reason: string }[] = [];
  for (const file of files.filter((entry) => isReactFree(entry.path))) {
    if (file.path.endsWith('.tsx')) {
      breaks.push({
        edge: `${file.path} -> react/jsx-runtime`,
        reason: `${file.path} is JSX, so it runs React`,
      });
    }
    for (const spec of file.imports) {
      if (spec.kind === 'type') continue;
      if (REACT.test(spec.specifier)) {
        breaks.push({
          edge: `${file.path} -> ${spec.specifier}`,
          reason: `${file.path}:${spec.line} imports '${spec.specifier}'`,
        });
        continue;
      }
      if (!spec.target || !byPath.has(spec.target) || isReactFree(spec.target)) continue;
      if (file.path === EXPORT_JOB && EXPORT_RENDERER.includes(spec.target)) continue;
      const chain = chainToReact(byPath, spec.target);
      if (chain) {
        breaks.push({
          edge: `${file.path} -> ${spec.target}`,
          reason: `${file.path}:${spec.line} reaches React: ${[file.path, ...chain].join(' -> ')}`,
        });
      }
    }
  }
  return breaks;
}

/** Compares what the check found with the known list both ways, so the list only shrinks. */
function expectOnlyKnown(found: { edge: string; reason: string }[], known: Known[]) {
  const knownEdges = new Set(known.map((entry) => entry.edge));
  const foundEdges = new Set(found.map((entry) => entry.edge));
  expect(found.filter((entry) => !knownEdges.has(entry.edge)).map((entry) => entry.reason)).toEqual([]);
  expect(
    known
      .filter((entry) => !foundEdges.has(entry.edge))
      .map((entry) => `${entry.edge} (${entry.owner}) is fixed: delete its entry`),
  ).toEqual([]);
}

const files = sourceFiles();

describe.each([
  ['the widget', PACKAGES.widget, WIDGET_LAYERS],
  ['the service', PACKAGES.server, SERVER_LAYERS],
])('%s', (_name, root, layers) => {
  const own = files.filter((file) => inPackage(file.path, root));

  it('puts every source file in a layer', () => {
    // The check sees the package (a wrong root would pass anything).
    expect(own.length).toBeGreaterThan(50);
    expect(own.filter((file) => !layerOf(layers, file.path)).map((file) => file.path)).toEqual([]);
  });

  it('imports only down its layers', () => {
    const breaks = layerBreaks(files, root, layers);
    expectOnlyKnown(
      breaks,
      KNOWN_LAYER_BREAKS.filter((entry) => inPackage(entry.edge, root)),
    );
  });
});

describe('protocol', () => {
  it('imports nothing of ours but itself', () => {
    const protocol = files.filter((file) => file.path.startsWith(`${W}protocol/`));
    expect(protocol.length).toBeGreaterThan(5);
    const outside = protocol.flatMap((file) =>
      file.imports
        .filter((spec) => spec.target && !spec.target.startsWith(`${W}protocol/`))
        .map((spec) => `${file.path}:${spec.line} imports '${spec.specifier}'`),
    );
    expect(outside).toEqual([]);
  });
});

describe('React-free modules', () => {
  it('reach no React module through what they run', () => {
    const roots = files.filter((file) => isReactFree(file.path));
    // Both packages' React-free cores are in the set: the controller, the protocol, the service.
    expect(roots.map((file) => file.path)).toEqual(
      expect.arrayContaining([`${W}chat/controller.ts`, `${W}protocol/schemas.ts`, `${S}service.ts`]),
    );
    expectOnlyKnown(reactBreaks(files), KNOWN_REACT_REACHES);
  });
});
