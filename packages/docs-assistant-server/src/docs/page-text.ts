/**
 * The text of a page and of its sections as the index holds them, as Markdown: what the search
 * endpoint and MCP's `search` give as a result's content, and what the page endpoint, MCP's
 * `get_page` and `llms-full.txt` give for a page read from its index.
 */
import type { DocPage, DocSection } from './page.js';

const fence = (block: DocSection['code'][number]): string => `\`\`\`${block.lang}\n${block.code}\n\`\`\``;

/**
 * A section's text, paragraphs apart: its paragraphs and list items with each code block (fenced)
 * after the paragraph it follows in the source, then its table rows.
 */
export function sectionText(section: DocSection): string {
  const after = section.codeAfter;
  // Without positions (an index built before they were kept), the code comes after the text.
  if (!after || after.length !== section.code.length) {
    return [...section.blocks, ...section.rows, ...section.code.map(fence)].join('\n\n');
  }
  const codeAfter = (index: number) => section.code.filter((_, c) => after[c] === index).map(fence);
  const parts = [...codeAfter(-1)];
  section.blocks.forEach((block, index) => {
    parts.push(block, ...codeAfter(index));
  });
  // A block index past the paragraphs (a code block at the section's end) keeps its code too.
  parts.push(...section.code.filter((_, c) => after[c]! >= section.blocks.length).map(fence));
  return [...parts, ...section.rows].join('\n\n');
}

/**
 * A page's text as the index holds it, as Markdown: the title and headings as headings, each
 * section's paragraphs and list items (as plain text), table rows and fenced code blocks.
 */
export function pageText(page: DocPage): string {
  // The description is already the first block of the text before the first heading.
  const parts = [`# ${page.title}`];
  for (const section of page.sections) {
    const depth = section.headingPath.length;
    if (depth) parts.push(`${'#'.repeat(Math.min(6, depth + 1))} ${section.headingPath[depth - 1]}`);
    const text = sectionText(section);
    if (text) parts.push(text);
  }
  return `${parts.join('\n\n')}\n`;
}
