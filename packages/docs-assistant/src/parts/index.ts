export { CodeBlock, type CodeBlockProps } from './code-block.js';
export { FilePart } from './file-part.js';
export { createHrefResolver, isSafeHref } from './href.js';
export { createImagePolicy, type ImagePolicy, parseAllowedImageOrigins } from './image-policy.js';
export type { MarkdownProps } from './markdown.js';
export {
  type LimitedMarkdown,
  limitMarkdown,
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_DEPTH,
  type MarkdownLimitReason,
} from './markdown-limits.js';
export { defaultPartComponents, type MessagePartsProps } from './message-parts.js';
export { collectSources, SourcesList } from './sources.js';
export { splitMarkdownBlocks } from './split-markdown-blocks.js';
export { parseSuggestions, type Suggestion } from './suggestions.js';
export { ToolInvocationPart } from './tool-invocation-part.js';
export type {
  FilePartProps,
  PartComponents,
  PartRenderContext,
  ReasoningPartProps,
  SourcesProps,
  TextPartProps,
  ToolInvocationProps,
} from './types.js';
export { Markdown, MessageParts, ReasoningPart, TextPart } from './with-parser.js';
