/**
 * Markdown text to the HTML tree (hast) the renderer turns into elements: micromark with the GFM
 * extensions, then `mdast-to-hast.ts`. The one parse the widget has, run on the main thread by
 * `render-markdown.tsx` and in the Markdown worker (`markdown-worker.ts`) while an answer streams.
 */
import type { Root } from 'hast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdastToHast } from './mdast-to-hast.js';
import { gfmFromMarkdownExtension, gfmSyntax } from './remark-gfm-syntax.js';

export function parseMarkdown(markdown: string): Root {
  return mdastToHast(
    fromMarkdown(markdown, { extensions: [gfmSyntax], mdastExtensions: [gfmFromMarkdownExtension] }),
  );
}
