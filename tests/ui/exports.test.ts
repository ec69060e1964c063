import { describe, expect, it } from 'vitest';

describe('public API', () => {
  it('exposes exactly these runtime exports', async () => {
    const api = await import('../../src/index');
    expect(Object.keys(api).sort()).toEqual([
      'DocsAssistant',
      'FilePart',
      'MessageParts',
      'ReasoningPart',
      'SourcesList',
      'TextPart',
      'ToolInvocationPart',
      'createContextStore',
      'defaultLabels',
      'useDocsAssistant',
    ]);
  });

  it('starts with the "use client" directive', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(new URL('../../src/index.ts', import.meta.url), 'utf8');
    expect(source.startsWith("'use client';")).toBe(true);
  });
});
