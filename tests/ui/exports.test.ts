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

  it.each(['index.ts', 'widget.ts'])('starts %s with the "use client" directive', async (file) => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(
      new URL(`../../packages/docs-assistant/src/${file}`, import.meta.url),
      'utf8',
    );
    expect(source.startsWith("'use client';")).toBe(true);
  });
});
