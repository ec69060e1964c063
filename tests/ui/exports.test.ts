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

  it.each(['widget.ts', 'headless.ts'])('starts %s with the "use client" directive', async (file) => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(
      new URL(`../../packages/docs-assistant/src/${file}`, import.meta.url),
      'utf8',
    );
    expect(source.startsWith("'use client';")).toBe(true);
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
