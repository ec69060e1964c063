/**
 * GitHub Flavored Markdown for reading only: what `remark-gfm` does minus the serializer.
 *
 * `remark-gfm` also registers the GFM `mdast-util-to-markdown` extensions, which pull the whole
 * Markdown serializer into the bundle (a fifth of the widget's Markdown code) although answers are
 * only ever parsed and rendered, never written back out. These are the same micromark
 * syntax and mdast-from-markdown extensions, so the tree, and so the output, is the same: tables,
 * task lists, strikethrough, autolink literals and footnotes. The widget passes the two extensions
 * to the parser itself (`render-markdown.tsx`); `tests/parts/remark-gfm-syntax.test.tsx` wraps them in a
 * unified plugin to hold them to remark-gfm.
 */
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

// Built once: every block rendered (each streamed chunk) is parsed with them, and they hold no
// state between parses. `render-markdown.tsx` passes them to the parser directly.
export const gfmSyntax = gfm();
export const gfmFromMarkdownExtension = gfmFromMarkdown();
