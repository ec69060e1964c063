import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInMemoryAssistant } from '../../packages/docs-assistant-server/src/in-memory';
import { ASSISTANT_KEY, authHeaders, body, FIXTURE_DOCS, parseStream } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function fixtureFiles(dir = FIXTURE_DOCS): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(files, fixtureFiles(full));
    else files[relative(FIXTURE_DOCS, full)] = readFileSync(full, 'utf8');
  }
  return files;
}

/** Modules a file loads eagerly: static imports and re-exports that are not type-only. */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^(import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'/gm)) {
    if (!match[2]) specifiers.push(match[3]!);
  }
  for (const match of source.matchAll(/^import\s+'([^']+)'/gm)) specifiers.push(match[1]!);
  return specifiers;
}

function eagerGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of staticImports(file)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      // Sources import `./x.js` for `./x.ts` (NodeNext style).
      const base = resolve(dirname(file), specifier.replace(/\.js$/, ''));
      const candidates = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base];
      const found = candidates.find((candidate) => {
        try {
          return statSync(candidate).isFile();
        } catch {
          return false;
        }
      });
      if (!found) throw new Error(`cannot resolve ${specifier} from ${file}`);
      visit(found);
    }
  };
  visit(entry);
  return { files: [...files], packages: [...packages] };
}

describe('in-memory assistant (no Node built-ins)', () => {
  it('answers from the given files, with the same stream as the Node service', async () => {
    const assistant = createInMemoryAssistant({
      files: fixtureFiles(),
      domain: 'acme',
      assistantKey: ASSISTANT_KEY,
    });
    expect(assistant.index.pages.map((page) => page.path)).toContain('/guides/theming');
    const response = await assistant.fetch(
      new Request('http://mock/discovery/v1/assistant/acme/message', {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('How do I enable dark mode?')),
      }),
    );
    expect(response.status).toBe(200);
    const parsed = parseStream(await response.text());
    expect(parsed.text).toContain('theme="dark"');
    expect(parsed.searchResults[0]?.path).toBe('/guides/theming');
    expect(parsed.finish?.threadId).toMatch(/^thr_/);

    const rejected = await assistant.fetch(
      new Request('http://mock/discovery/v1/assistant/acme/message', { method: 'POST', body: '{}' }),
    );
    expect(rejected.status).toBe(401);
  });

  it('loads no Node built-in and no Node server package eagerly', () => {
    const { files, packages } = eagerGraph(join(ROOT, 'packages/docs-assistant-server/src/in-memory.ts'));
    expect(files.length).toBeGreaterThan(5);
    const builtins = new Set(builtinModules);
    const nodeOnly = packages.filter(
      (name) => name.startsWith('node:') || builtins.has(name) || name.startsWith('@hono/node-server'),
    );
    expect(nodeOnly).toEqual([]);
  });

  it('names no Node built-in in a dynamic import either, which a browser bundler would still resolve', () => {
    // Vite follows `import('node:fs/promises')` even when it only runs with a data folder, and ships
    // a stub for it in Storybook's bundle (with a warning); the in-memory graph must not spell one.
    const { files } = eagerGraph(join(ROOT, 'packages/docs-assistant-server/src/in-memory.ts'));
    const builtins = new Set(builtinModules);
    const spelled = files.flatMap((file) =>
      Array.from(readFileSync(file, 'utf8').matchAll(/\bimport\(\s*['"`]([^'"`]+)['"`]\s*\)/g), (m) => m[1]!)
        .filter((name) => name.startsWith('node:') || builtins.has(name))
        .map((name) => `${relative(ROOT, file)}: ${name}`),
    );
    expect(spelled).toEqual([]);
  });
});
