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
import type { SiteFramework } from './sites/types.js';

/** Gives the anchor of each heading of one page in order (repeats get the framework's suffix). */
export type Slugger = (heading: string) => string;

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

/** Python-Markdown `toc`'s `unique`: `intro`, `intro_1`, `intro_2`; an empty anchor is `_1`. */
function mkdocsSlugger(): Slugger {
  const used = new Set<string>();
  return (heading) => {
    let id = mkdocsSlug(heading);
    while (used.has(id) || !id) {
      const numbered = /^(.*)_([0-9]+)$/.exec(id);
      id = numbered ? `${numbered[1]}_${Number(numbered[2]) + 1}` : `${id}_1`;
    }
    used.add(id);
    return id;
  };
}

/** markdown-it-anchor's unique slugs over VitePress's slugify: `intro`, `intro-1`, `intro-2`. */
function vitepressSlugger(): Slugger {
  const used = new Set<string>();
  return (heading) => {
    const base = vitepressSlug(heading);
    let id = base;
    for (let i = 1; used.has(id); i++) id = `${base}-${i}`;
    used.add(id);
    return id;
  };
}

function githubSlugger(): Slugger {
  const slugger = new GithubSlugger();
  return (heading) => slugger.slug(heading);
}

/** A new slugger for one page of a site of `framework` (the heading's plain text in, its anchor out). */
export function createSlugger(framework: SiteFramework = 'folder'): Slugger {
  if (framework === 'mkdocs') return mkdocsSlugger();
  if (framework === 'vitepress') return vitepressSlugger();
  return githubSlugger();
}
