import * as parts from '../../packages/docs-assistant/src/parts';

describe('docs-assistant parts', () => {
  it('exposes the public api', () => {
    expect(Object.keys(parts).sort()).toEqual([
      'CodeBlock',
      'FilePart',
      'MARKDOWN_MAX_CHARS',
      'MARKDOWN_MAX_DEPTH',
      'Markdown',
      'MessageParts',
      'ReasoningPart',
      'SourcesList',
      'TextPart',
      'ToolInvocationPart',
      'collectSources',
      'createHrefResolver',
      'createImagePolicy',
      'defaultPartComponents',
      'isSafeHref',
      'limitMarkdown',
      'parseAllowedImageOrigins',
      'parseSuggestions',
      'splitMarkdownBlocks',
    ]);
  });

  it('names every memoised component for React DevTools', () => {
    const named: Record<string, { displayName?: string }> = {
      MessageParts: parts.MessageParts,
      TextPart: parts.TextPart,
      ReasoningPart: parts.ReasoningPart,
      ToolInvocationPart: parts.ToolInvocationPart,
      SourcesList: parts.SourcesList,
      FilePart: parts.FilePart,
    };
    for (const [name, component] of Object.entries(named)) expect(component.displayName).toBe(name);
  });
});
