import { describe, expect, it } from 'vitest';

describe('public API', () => {
  it('exposes exactly these runtime exports', async () => {
    const api = await import('../../packages/docs-assistant/src/index');
    expect(Object.keys(api).sort()).toEqual([
      'DocsAssistant',
      'FilePart',
      'MessageParts',
      'ReasoningPart',
      'SourcesList',
      'TextPart',
      'ToolInvocationPart',
      'createContextStore',
      'createHrefResolver',
      'defaultLabels',
      'useDocsAssistant',
      'useDocsSearch',
    ]);
  });

  it('exposes the widget alone from docs-assistant/widget, the same component as the main entry', async () => {
    const widget = await import('../../packages/docs-assistant/src/widget');
    const api = await import('../../packages/docs-assistant/src/index');
    expect(Object.keys(widget).sort()).toEqual(['DocsAssistant', 'createContextStore', 'defaultLabels']);
    expect(widget.DocsAssistant).toBe(api.DocsAssistant);
    expect(widget.defaultLabels).toBe(api.defaultLabels);
  });

  it('maps docs-assistant/widget in package.json to the built entry and its types', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(
      await readFile(new URL('../../packages/docs-assistant/package.json', import.meta.url), 'utf8'),
    );
    expect(pkg.exports['./widget']).toEqual({
      types: './dist/types/widget.d.ts',
      import: './dist/widget.js',
    });
  });

  it.each(['ui/docs-assistant.tsx', 'headless.ts'])(
    'starts %s, a client boundary, with the "use client" directive',
    async (file) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(
        new URL(`../../packages/docs-assistant/src/${file}`, import.meta.url),
        'utf8',
      );
      expect(source.startsWith("'use client';")).toBe(true);
    },
  );

  it('gives widget.ts no directive: it re-exports the component with export *, which Next.js refuses in a "use client" module, and plain values a server component may import', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(
      new URL('../../packages/docs-assistant/src/widget.ts', import.meta.url),
      'utf8',
    );
    expect(source).not.toMatch(/^\s*['"]use client['"]/m);
    expect(source).toContain("export * from './ui/docs-assistant.js';");
    // What it exports by value imports no React (a server component evaluates it).
    for (const file of ['labels/defaults.ts', 'labels/shell.ts', 'context/store.ts']) {
      const module = await readFile(
        new URL(`../../packages/docs-assistant/src/${file}`, import.meta.url),
        'utf8',
      );
      expect(module, file).not.toMatch(/from 'react/);
    }
  });

  it('re-exports every value of index.ts with export * from a "use client" module, with no directive of its own', async () => {
    // Next.js refuses `export *` in a "use client" module; esbuild loads the whole widget up front
    // when the barrel names `DocsAssistant` itself (tests/size holds the launcher to its budget).
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(
      new URL('../../packages/docs-assistant/src/index.ts', import.meta.url),
      'utf8',
    );
    const statements = source
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split(';')
      .map((statement) => statement.trim().replace(/\s+/g, ' '))
      .filter((statement) => statement && !statement.startsWith('export type '));
    expect(statements).toEqual(["export * from './headless.js'", "export * from './widget.js'"]);
  });
});
