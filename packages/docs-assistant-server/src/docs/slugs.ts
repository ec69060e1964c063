/**
 * Heading anchors as each framework writes them, so a link to `page#anchor` from an answer, a
 * search result or the static export lands where the site puts the heading. Through the libraries
 * the frameworks use: `github-slugger` (Docusaurus, Starlight; Mintlify and plain folders, which
 * GitHub renders, too) and VitePress's own `slugify` from `@mdit-vue/shared` (repeats numbered as
 * markdown-it-anchor does). MkDocs' is Python-Markdown's `toc` slugify, which has no npm package:
 * ported below.
 */
import { slugify as vitepressSlug } from '@mdit-vue/shared';
import GithubSlugger from 'github-slugger';
import { FenceTracker, HEADING } from './mdx-scan.js';
import type { SiteFramework } from './sites/types.js';

/**
 * Gives the anchor of each heading of one page in order (repeats get the framework's suffix). A
 * heading with its own anchor (`own`, see `headingWithId`) keeps it, as its framework does.
 */
export type Slugger = (heading: string, own?: string) => string;

/** What decides how a page's headings name their own anchors: its site's framework and config. */
export interface HeadingSite {
  framework?: SiteFramework;
  /** MkDocs with the `attr_list` extension. */
  attrList?: boolean;
}

/**
 * A heading's own anchor, as the frameworks that read one write it at the heading's end:
 * Docusaurus (`## Setup {#setup}`, in MDX `\{#setup\}` or `{/* #setup *\/}`), VitePress
 * (`{#setup}`) and MkDocs with `attr_list` (`{#setup}`, `{: #setup .wide }`: an attribute list,
 * from which only the id is kept). Elsewhere such a suffix is text, as the site shows it.
 */
function ownIdRule(site: HeadingSite | undefined): RegExp | undefined {
  if (site?.framework === 'docusaurus')
    return /[ \t]*(?:\\?\{#([^\s{}\\]+)\\?\}|\{\/\*[ \t]*#([^\s*]+)[ \t]*\*\/\})[ \t]*$/;
  if (site?.framework === 'vitepress') return /[ \t]*(?<!\\)\{#([^\s{}\\]+)\}[ \t]*$/;
  if (site?.framework === 'mkdocs' && site.attrList) return ATTR_LIST;
  return undefined;
}

/**
 * Python-Markdown's attribute list at a heading's end: `{`, an optional `:`, then ids (`#x`),
 * classes (`.x`) and `key=value` pairs. Its id, if any, is the last group.
 */
const ATTR_LIST =
  /[ \t]*\{:?[ \t]*(?:(?:\.[\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+))[ \t]+)*(?:#([^\s{}\\]+)[ \t]*)?(?:(?:\.[\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+))[ \t]*)*\}[ \t]*$/;

const OWN_ID_HINT = /\{[#:./ \t]/;

/** How `markHeadingIds` leaves an own anchor: text in Markdown and in MDX alike. */
const MARKED = /[ \t]*\\\{#([^\s{}\\]+)\\\}$/;

/**
 * The page's body with each heading's own anchor (where its site reads one) written one way,
 * ` \{#id\}` at the heading's end, which MDX keeps as text (`{#id}` alone is an expression, and
 * `{/* #id *\/}` a comment, both dropped); an attribute list without an id goes. Fenced code stays
 * as it is. Both readers of a page run it first (`parse.ts` for the index, `agents/markdown.ts`
 * for the Markdown and the static export).
 */
export function markHeadingIds(body: string, site: HeadingSite | undefined): string {
  const own = ownIdRule(site);
  // One scan for the brace every form opens with (`{#`, `{:`, `{.`, `{/*`, `{ `) before the per-line pass.
  if (!own || !OWN_ID_HINT.test(body)) return body;
  const fences = new FenceTracker();
  return body
    .split('\n')
    .map((line) => {
      if (fences.step(line) || !HEADING.test(line)) return line;
      const match = own.exec(line);
      if (!match || match.index === 0) return line;
      const id = match[1] ?? match[2];
      return `${line.slice(0, match.index)}${id ? ` \\{#${id}\\}` : ''}`;
    })
    .join('\n');
}

/** The Markdown with the anchors `markHeadingIds` marked taken off its headings again. */
export function dropHeadingIds(markdown: string, site: HeadingSite | undefined): string {
  if (!ownIdRule(site) || !markdown.includes('\\{#')) return markdown;
  const fences = new FenceTracker();
  return markdown
    .split('\n')
    .map((line) => (fences.step(line) || !HEADING.test(line) ? line : line.replace(MARKED, '')))
    .join('\n');
}

/**
 * A heading's text (as `HEADING` reads it from a body `markHeadingIds` went over) without its own
 * anchor, and the anchor; `own` is undefined where it has none or its site reads none.
 */
export function headingWithId(
  heading: string,
  site: HeadingSite | undefined,
): { text: string; own?: string } {
  const match = ownIdRule(site) && MARKED.exec(heading);
  return match ? { text: heading.slice(0, match.index), own: match[1] } : { text: heading };
}

/**
 * The same, in rendered text, where the escapes are gone (`Setup {#setup}`): for the static
 * export's HTML, which renders the Markdown `markHeadingIds` marked.
 */
export function renderedHeadingWithId(
  text: string,
  site: HeadingSite | undefined,
): { text: string; own?: string } {
  const match = ownIdRule(site) && /[ \t]*\{#([^\s{}\\]+)\}$/.exec(text);
  return match ? { text: text.slice(0, match.index), own: match[1] } : { text };
}

/**
 * Python-Markdown `toc`'s `slugify` (MkDocs' default): accents dropped (NFKD, then ASCII only),
 * anything but word characters, spaces and hyphens removed, lower case, runs of spaces and
 * hyphens to one `-`.
 */
export function mkdocsSlug(heading: string): string {
  // Python's `.encode('ascii', 'ignore')`: every character past ASCII goes.
  const ascii = heading.normalize('NFKD').replace(/[^\p{ASCII}]/gu, '');
  return ascii
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '-');
}

/**
 * A slugger whose anchors are unique on the page: an own anchor is taken as written and counts as
 * used; any other is `unique`'s first free anchor for the heading.
 */
function countedSlugger(unique: (heading: string, used: Set<string>) => string): Slugger {
  const used = new Set<string>();
  return (heading, own) => {
    const id = own || unique(heading, used);
    used.add(id);
    return id;
  };
}

/**
 * Python-Markdown `toc`'s `unique`: `intro`, `intro_1`, `intro_2`; an empty anchor is `_1`. An own
 * anchor (`attr_list`) is kept and counts as used.
 */
const mkdocsSlugger = (): Slugger =>
  countedSlugger((heading, used) => {
    let id = mkdocsSlug(heading);
    while (used.has(id) || !id) {
      const numbered = /^(.*)_([0-9]+)$/.exec(id);
      id = numbered ? `${numbered[1]}_${Number(numbered[2]) + 1}` : `${id}_1`;
    }
    return id;
  });

/**
 * markdown-it-anchor's unique slugs over VitePress's slugify: `intro`, `intro-1`, `intro-2`. An
 * own anchor is taken as written and counts as used (a later `## Setup` beside `{#setup}` is
 * `setup-1`), as markdown-it-anchor does.
 */
const vitepressSlugger = (): Slugger =>
  countedSlugger((heading, used) => {
    const base = vitepressSlug(heading);
    let id = base;
    for (let i = 1; used.has(id); i++) id = `${base}-${i}`;
    return id;
  });

/** github-slugger's, as Docusaurus runs it: an own anchor is taken as written and not counted. */
function githubSlugger(): Slugger {
  const slugger = new GithubSlugger();
  return (heading, own) => own ?? slugger.slug(heading);
}

/** A new slugger for one page of a site of `framework` (the heading's plain text in, its anchor out). */
export function createSlugger(framework: SiteFramework = 'folder'): Slugger {
  if (framework === 'mkdocs') return mkdocsSlugger();
  if (framework === 'vitepress') return vitepressSlugger();
  return githubSlugger();
}
