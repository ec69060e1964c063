/**
 * Reads a JavaScript or TypeScript config file (`docusaurus.config.ts`, `sidebars.js`,
 * `.vitepress/config.mts`) as the framework would: the file is the site owner's own code and runs
 * in this process. esbuild (found at run time, not a dependency of this package) bundles it with
 * its relative imports; every package it imports is replaced by an inert stand-in, so a config
 * reads without the site's dependencies installed (`defineConfig(x)` gives `x` back, a plugin is
 * an object nobody calls). Node's built-in modules are the real ones.
 */
import { builtinModules, createRequire } from 'node:module';
import { dirname, extname, isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type DocsRoot, docsRoot } from '../files.js';
import { isRecord } from './nav.js';
import type { SiteNavigation } from './types.js';

interface EsbuildPluginBuild {
  onResolve(
    options: { filter: RegExp },
    callback: (args: {
      path: string;
      importer: string;
    }) => { path: string; namespace?: string; pluginData?: unknown; external?: boolean } | undefined,
  ): void;
  onLoad(
    options: { filter: RegExp; namespace?: string },
    callback: (args: {
      path: string;
      pluginData?: unknown;
    }) => Promise<{ contents: string; loader: 'js' | 'ts' | 'json' } | undefined>,
  ): void;
}

interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles?: { text: string }[] }>;
}

// The name is a variable so the bundler that builds this package leaves the import to run time.
const ESBUILD = 'esbuild';

async function loadEsbuild(file: string): Promise<Esbuild> {
  try {
    return (await import(/* @vite-ignore */ ESBUILD)) as Esbuild;
  } catch {
    throw new Error(
      `reading ${file} needs esbuild, which is not installed next to docs-assistant-server; install it (npm i -D esbuild) or the site is read as a plain folder`,
    );
  }
}

const BUILTINS = new Set(builtinModules);
const isBare = (path: string): boolean => !/^(\.|\/|[A-Za-z]:[\\/])/.test(path);
const isBuiltin = (path: string): boolean => path.startsWith('node:') || BUILTINS.has(path.split('/')[0]!);

/** Names a module imports from `specifier` (`import { a, b as c }`, `require('x').a`), for the stand-in's exports. */
async function importedNames(root: DocsRoot, importer: string, specifier: string): Promise<string[]> {
  const source = readInRoot(root, importer) ?? '';
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const names = new Set<string>();
  const imports = new RegExp(
    `import\\s+(?!type\\s)(?:[\\w$]+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`,
    'g',
  );
  for (const match of source.matchAll(imports)) {
    for (const part of match[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default') names.add(name);
    }
  }
  // CommonJS: `const { a, b: c } = require('x')` and `require('x').a`.
  const destructured = new RegExp(`\\{([^}]*)\\}\\s*=\\s*require\\(\\s*['"]${quoted}['"]\\s*\\)`, 'g');
  for (const match of source.matchAll(destructured)) {
    for (const part of match[1]!.split(',')) {
      const name = part.split(':')[0]!.trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default') names.add(name);
    }
  }
  for (const match of source.matchAll(
    new RegExp(`require\\(\\s*['"]${quoted}['"]\\s*\\)\\.([A-Za-z_$][\\w$]*)`, 'g'),
  )) {
    if (match[1] !== 'default') names.add(match[1]!);
  }
  return [...names];
}

// A value that is anything a config may ask of a package: callable, constructible, any property.
const STAND_IN = `
const handler = {
  get(target, key) {
    if (key === Symbol.toPrimitive) return () => '';
    if (key === 'then' || key === '__esModule' || typeof key === 'symbol') return undefined;
    return standIn();
  },
  apply(target, self, args) {
    const first = args[0];
    return first !== null && (typeof first === 'object' || typeof first === 'function') ? first : standIn();
  },
  construct() { return standIn(); },
};
function standIn() { return new Proxy(function () {}, handler); }
`;

/** A file the config bundle reads (absolute), by the docs root's rule; undefined when refused. */
function readInRoot(root: DocsRoot, file: string): string | undefined {
  const inside = relative(root.path, file).split(sep).join('/');
  if (!inside || inside.startsWith('../') || isAbsolute(inside)) return undefined;
  return root.readText(inside, 'config');
}

const LOADERS: Record<string, 'js' | 'ts' | 'json'> = {
  '.json': 'json',
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'ts',
};

/**
 * Runs a config module and returns its default export (a function export is called, an exported
 * promise awaited, as the frameworks do). Throws an error naming the file when it cannot.
 */
export async function loadConfigModule(folder: string, configFile: string): Promise<unknown> {
  const root = docsRoot(folder);
  // The config itself by the docs root's rule: a config that is a symlink out of the folder is refused.
  root.read(configFile, 'config');
  const file = root.absolute(configFile);
  const esbuild = await loadEsbuild(file);
  const standIns = {
    name: 'docs-assistant-stand-ins',
    setup(build: EsbuildPluginBuild) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (!isBare(args.path)) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        // One stand-in per importing file, so each exports the names that file asks for.
        return {
          path: `${args.path} (from ${args.importer})`,
          namespace: 'stand-in',
          pluginData: { specifier: args.path, importer: args.importer },
        };
      });
      build.onLoad({ filter: /.*/, namespace: 'stand-in' }, async (args) => {
        const { specifier, importer } = args.pluginData as { specifier: string; importer: string };
        const names = await importedNames(root, importer, specifier);
        const exports = names.map((name) => `export const ${name} = value.${name};`).join('\n');
        return {
          contents: `${STAND_IN}\nconst value = standIn();\nexport default value;\n${exports}`,
          loader: 'js',
        };
      });
      // Every file of the config's own (its relative imports) by the docs root's rule too.
      build.onLoad({ filter: /.*/ }, async (args) => {
        const contents = readInRoot(root, args.path);
        if (contents === undefined) {
          throw new Error(`${args.path} is outside the docs folder ${root.path}, or not a file; not read`);
        }
        const loader = LOADERS[extname(args.path).toLowerCase()] ?? 'js';
        return { contents, loader };
      });
    },
  };
  let code: string;
  try {
    const result = await esbuild.build({
      entryPoints: [file],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) },
      plugins: [standIns],
    });
    code = result.outputFiles?.[0]?.text ?? '';
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
    throw new Error(`could not read ${file}: ${message}`);
  }
  const module = { exports: {} as Record<string, unknown> };
  try {
    const run = new Function('module', 'exports', 'require', '__filename', '__dirname', code);
    run(module, module.exports, createRequire(file), file, dirname(file));
    let value: unknown = module.exports.default ?? module.exports;
    if (typeof value === 'function') value = await (value as () => unknown)();
    return await value;
  } catch (error) {
    throw new Error(`could not run ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A site reader whose navigation comes from a config module (Docusaurus, Starlight): the docs
 * folder, its config file, the folder's files and a file's front matter in, the site's pages out.
 */
export type ConfigModuleReader = (
  root: string,
  configFile: string,
  files: string[],
  frontMatter: (file: string) => Record<string, unknown>,
) => Promise<SiteNavigation>;

/** `loadConfigModule` for a config that must be an object; throws naming the file when it is not. */
export async function loadConfigObject(folder: string, configFile: string): Promise<Record<string, unknown>> {
  const loaded = await loadConfigModule(folder, configFile);
  if (!isRecord(loaded)) throw new Error(`${configFile} does not export a config object`);
  return loaded;
}
