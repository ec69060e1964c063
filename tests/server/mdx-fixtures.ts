/** The MDX fixtures (`tests/fixtures/mdx`) and what raw markup looks like, for the MDX tests. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DocPage,
  type DocSection,
  parseDocument,
} from '../../packages/docs-assistant-server/src/docs/parse';

export const MDX_FIXTURES = fileURLToPath(new URL('../fixtures/mdx', import.meta.url));

export function loadMdxFixtures(): DocPage[] {
  return readdirSync(MDX_FIXTURES)
    .filter((file) => file.endsWith('.mdx'))
    .sort()
    .map((file) => parseDocument(file, readFileSync(join(MDX_FIXTURES, file), 'utf8')));
}

/** Every piece of prose of a section: blocks, table rows, step titles and texts. */
export const proseOf = (section: DocSection): string[] => [
  ...section.blocks,
  ...section.rows,
  ...(section.steps ?? []).flat().flatMap((step) => [step.title ?? '', step.text]),
  section.pageTitle,
  ...section.headingPath,
];

/**
 * Markup a reader must never see in prose: a JSX/HTML tag, an attribute, a JSX expression or
 * comment, an ESM line, a front matter fence or key.
 */
export const RAW_MARKUP: [string, RegExp][] = [
  ['a tag', /<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/],
  ['a fragment', /<\/?>/],
  ['an attribute', /\b[a-z][\w-]*=(["'{])/i],
  ['a JSX expression or comment', /\{[^}]*\}|\{\/\*/],
  ['an ESM line', /(^|\n)\s*(import|export)\s+(\{|[\w*]+\s|const|default|function)/],
  ['front matter', /(^|\n)---\s*(\n|$)|(^|\n)(title|description|sidebarTitle|icon):\s/],
];
