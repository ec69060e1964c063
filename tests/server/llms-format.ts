/**
 * `llms.txt` read by the rules of the format (llmstxt.org): an H1 with the site's name first, then
 * an optional blockquote summary, then any Markdown but headings, then H2 sections, each a list of
 * `[name](url)` links, each optionally followed by `: notes`. Parsed with mdast-util-from-markdown,
 * so the structure is Markdown's, not a guess from line prefixes. Throws what breaks the rules.
 */
import type { List, Nodes, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as textOf } from 'mdast-util-to-string';

export interface LlmsLink {
  title: string;
  url: string;
  notes?: string;
}

export interface LlmsFile {
  name: string;
  summary?: string;
  sections: { name: string; links: LlmsLink[] }[];
}

function linkOf(item: List['children'][number], where: string): LlmsLink {
  const paragraph = item.children[0];
  if (item.children.length !== 1 || paragraph?.type !== 'paragraph') {
    throw new Error(`${where}: a list item must be one line "[name](url): notes"`);
  }
  const [link, ...rest] = paragraph.children;
  if (link?.type !== 'link') throw new Error(`${where}: a list item must start with a [name](url) link`);
  const after = rest.map((node: Nodes) => textOf(node)).join('');
  if (after && !after.startsWith(': ')) throw new Error(`${where}: text after the link must start with ": "`);
  return { title: textOf(link), url: link.url, ...(after ? { notes: after.slice(2) } : {}) };
}

export function parseLlmsTxt(text: string): LlmsFile {
  const root: Root = fromMarkdown(text);
  const nodes: RootContent[] = root.children;
  const first = nodes[0];
  if (first?.type !== 'heading' || first.depth !== 1) throw new Error('llms.txt must start with an H1');
  const file: LlmsFile = { name: textOf(first), sections: [] };
  let at = 1;
  if (nodes[at]?.type === 'blockquote') file.summary = textOf(nodes[at++]!);
  // Details: anything but headings, until the first H2.
  while (at < nodes.length && nodes[at]!.type !== 'heading') at++;
  for (; at < nodes.length; at++) {
    const node = nodes[at]!;
    if (node.type === 'heading') {
      if (node.depth !== 2) throw new Error(`only H2 headings may follow the H1 (found H${node.depth})`);
      file.sections.push({ name: textOf(node), links: [] });
      continue;
    }
    const section = file.sections[file.sections.length - 1]!;
    if (node.type !== 'list') throw new Error(`section "${section.name}" may hold only a list of links`);
    node.children.forEach((item, i) => {
      section.links.push(linkOf(item, `section "${section.name}", item ${i + 1}`));
    });
  }
  return file;
}
