export { CodeBlock, type CodeBlockProps } from './code-block';
export { FilePart } from './file-part';
export { createHrefResolver, isSafeHref } from './href';
export { Markdown, type MarkdownProps } from './markdown';
export { defaultPartComponents, MessageParts, type MessagePartsProps } from './message-parts';
export { ReasoningPart } from './reasoning-part';
export { collectSources, SourcesList } from './sources';
export { splitMarkdownBlocks } from './split-markdown-blocks';
export { parseSuggestions, type Suggestion } from './suggestions';
export { TextPart } from './text-part';
export { ToolInvocationPart } from './tool-invocation-part';
export type {
  FilePartProps,
  PartComponents,
  PartRenderContext,
  ReasoningPartProps,
  SourcesProps,
  TextPartProps,
  ToolInvocationProps,
} from './types';
