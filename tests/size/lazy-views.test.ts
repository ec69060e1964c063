/**
 * The rule that keeps the on-demand views out of the launcher and the panel under every bundler,
 * checked on the sources (no build): a view loaded by `import()` (`src/views/**`, `src/search/**`)
 * imports, as values, only modules of the views, none that the launcher or the panel import, and
 * no module is reached from two of those lazy imports.
 *
 * Why: esbuild puts a module reached from several entry points (its dynamic imports included) in a
 * shared chunk of its own. A view importing `labels.ts` or `chat/errors.ts` split the launcher into
 * five files and the panel into three (`npm run size`: esbuild launcher 9.29 kB, whole 86.2 kB).
 * webpack and Rspack copy a small module shared by two lazy chunks into both (search/core.ts and
 * views/history/labels.ts were each shipped twice). What a view needs of the core, the panel hands
 * it as props (see `events/feedback-slot.tsx`'s kit, `search/kit.ts`); views that share modules
 * load from one module (`views/share/entry.tsx`, `views/history/entry.ts`, `search/views.ts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../packages/docs-assistant/src/', import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
        ? [join(dir, entry.name)]
        : [],
  );

const files = sources(SRC);
const name = (file: string) => relative(SRC, file).replace(/\\/g, '/');

/** The file a relative specifier (`./x.js`) names. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`].find((candidate) => files.includes(candidate));
}

/**
 * What a module imports as values (type-only imports are erased). Re-exports (`export … from`) are
 * followed only when asked: bundlers keep a barrel's re-export only where a name of it is used, so
 * the core's barrels (`protocol/index.ts` re-exports the attachment rules of the tray) add nothing.
 */
function valueImports(file: string, reexports: boolean): string[] {
  const code = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of code.matchAll(/^(import|export)\s+([^;'"]*?)\s*(?:from\s*)?'([^']+)';/gms)) {
    if (match[1] === 'export' && !reexports) continue;
    const clause = match[2]!.trim();
    if (/^type\s/.test(clause)) continue;
    // `import { type A, type B } from`: types only.
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (braces && braces[1]!.split(',').every((item) => !item.trim() || /^type\s/.test(item.trim())))
      continue;
    const target = resolveSpecifier(file, match[3]!);
    if (target) found.push(target);
  }
  return found;
}

/** Targets of `import('…')` that load code (not `typeof import(…)` or `import(…).Type`). */
function dynamicImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of code.matchAll(/(typeof\s+)?\bimport\(\s*'([^']+)'\s*\)(\.[A-Z]\w*)?/g)) {
    if (match[1] || match[3]) continue;
    const target = resolveSpecifier(file, match[2]!);
    if (target) found.push(target);
  }
  return found;
}

function closure(start: string, reexports = true): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of valueImports(file, reexports)) visit(next);
  };
  visit(start);
  return seen;
}

const isView = (file: string) => /^(views|search)\//.test(name(file));

// The views loaded on demand: every `import()` of a view module outside the views (the script
// build's own lazy imports in embed/ load the widget, not a view).
const lazyViews = [
  ...new Set(files.filter((file) => !isView(file)).flatMap((file) => dynamicImports(file).filter(isView))),
];
// What the launcher and the panel load without a dynamic import.
const core = new Set(
  ['ui/docs-assistant.tsx', 'ui/panel.tsx'].flatMap((entry) => [...closure(join(SRC, entry), false)]),
);

it('finds the lazy views the launcher and the panel load', () => {
  expect(lazyViews.map(name).sort()).toEqual(
    expect.arrayContaining([
      'search/views.ts',
      'views/consent/consent-notice.tsx',
      'views/feedback/feedback.tsx',
      'views/history/entry.ts',
      'views/share/entry.tsx',
    ]),
  );
});

it.each(lazyViews.map((file) => [name(file), file]))(
  '%s imports only view modules, none the launcher or the panel has',
  (_, file) => {
    const reached = [...closure(file)].map(name);
    // The attachment rules are the wire contract's (the service checks the same ones), so they live
    // in protocol/, which the import-direction test keeps free of imports of ours; only the tray
    // reaches them, so they still ride in its lazy chunk (counted in the whole widget, not the views).
    const sharedWithService = new Set(['protocol/attachments.ts']);
    // A view's default words are written in labels/views/ (where `Labels` takes their types), plain
    // data that only views import, so they ride in the view's chunk.
    expect(
      reached.filter(
        (module) => !/^(views|search|labels\/views)\//.test(module) && !sharedWithService.has(module),
      ),
    ).toEqual([]);
    expect(reached.filter((module) => core.has(join(SRC, module)))).toEqual([]);
  },
);

it('reaches no module from two lazy imports (webpack and Rspack would copy it into both chunks)', () => {
  const owner = new Map<string, string>();
  const shared: string[] = [];
  for (const view of lazyViews) {
    for (const module of closure(view)) {
      const first = owner.get(module);
      if (first && first !== view) shared.push(`${name(module)} (${name(first)}, ${name(view)})`);
      else owner.set(module, view);
    }
  }
  expect(shared).toEqual([]);
});

// The same rule between the launcher and the panel: esbuild puts what both import (the context
// store, the shell's labels and their merge, the icon, the screen-reader-only style, the `error`
// event were) in a chunk of its own that the page loads up front beside the launcher, gzipped apart
// (`npm run size`: esbuild's launcher 8.29 kB, 7.30 of its own and 1.00 of that chunk). The panel
// gets them from the shell instead (`ShellFrame`, `ui/shell-frame.tsx`).
it('gives the panel no module the launcher imports: what it needs of them the shell hands it', () => {
  const launcher = closure(join(SRC, 'ui/docs-assistant.tsx'), false);
  const panel = [...closure(join(SRC, 'ui/panel.tsx'), false)];
  expect(panel.filter((module) => launcher.has(module)).map(name)).toEqual([]);
});
