/**
 * Docs for agents from the same index the assistant answers from: every page as clean Markdown
 * (`pageMarkdown`), `llms.txt` (the llmstxt.org format: H1 site name, blockquote summary, H2
 * sections from the navigation groups, `- [Title](…/page.md): description` lines) and
 * `llms-full.txt` (every navigation page's Markdown, in navigation order), one pair per language.
 * Served by the reference service (`routes.ts`), written into the static export (`bundle.ts`).
 */
import { posix } from 'node:path';
import { rootOfPage } from '../docs/files.js';
import { pageText } from '../docs/page-text.js';
import type { DocPage } from '../docs/parse.js';
import {
  llmsTxtPath,
  markdownOfSource,
  markdownPath,
  type PageLookup,
  type PageMarkdownOptions,
  withPointer,
} from './markdown.js';

export {
  convertBody,
  headedFences,
  llmsTxtPath,
  markdownOfSource,
  markdownPath,
  type PageLookup,
  type PageMarkdownOptions,
} from './markdown.js';

/**
 * The page's source file read again by the docs root's rule (`docs/files.ts`), or undefined when
 * the page has none (pages built in code), it is gone, or it no longer passes the rule (swapped for
 * a symlink out of the folder): the index's text of the page stands in then.
 */
function readSource(page: DocPage): string | undefined {
  return rootOfPage(page)?.readText(page.file, 'page');
}

/**
 * Reads the snippets a page imports from its site's folder: `/snippets/x.mdx` from the folder's
 * root, `./x.mdx` from the importing file, each by the docs root's rule (inside the real folder,
 * not ignored, Markdown).
 */
function snippetReader(page: DocPage): PageMarkdownOptions['readSnippet'] {
  const root = rootOfPage(page);
  if (!root) return undefined;
  return (specifier, fromFile) => {
    const file = posix.normalize(
      specifier.startsWith('/') ? specifier.slice(1) : posix.join(posix.dirname(fromFile), specifier),
    );
    if (file.startsWith('../') || file === '..' || posix.isAbsolute(file)) return undefined;
    const source = root.readText(file, 'snippet');
    return source === undefined ? undefined : { source, file };
  };
}

// Per page object: the index builds new page objects when a file changes, so a cached text never
// outlives the source it was made from.
const cache = new WeakMap<DocPage, Map<string, string>>();

/**
 * A page as clean Markdown for agents: MDX components turned into their Markdown meaning, no JSX,
 * no front matter, links to other pages of `index` as their `.md` URLs, headed by a one-line
 * pointer to `llms.txt`. Read from the page's source file; a page without one (built in code, or
 * its file removed since indexing) is written from the index's text of it.
 *
 * Links: with `markdownBase` (an origin, `https://docs.example.com`) they are absolute; without it
 * root-relative (`/guides/setup.md`).
 */
export function pageMarkdown(page: DocPage, index?: PageLookup, options: PageMarkdownOptions = {}): string {
  const full: PageMarkdownOptions = { ...options, ...(index ? { pages: index } : {}) };
  const key = `${full.markdownBase ?? ''}\u0000${full.siteBase ?? ''}\u0000${full.llmsTxtUrl ?? ''}\u0000${full.llmsTxtUrl === null}`;
  const custom = !!(full.markdownUrl || full.fileUrl);
  const cached = !custom ? cache.get(page)?.get(key) : undefined;
  if (cached !== undefined) return cached;
  const source = readSource(page);
  const readSnippet = full.readSnippet ?? snippetReader(page);
  const markdown =
    source === undefined
      ? withPointer(pageText(page), page, full)
      : markdownOfSource(page, source, { ...full, ...(readSnippet ? { readSnippet } : {}) });
  if (!custom) {
    let byKey = cache.get(page);
    if (!byKey) {
      byKey = new Map();
      cache.set(page, byKey);
    }
    // One entry per way of writing links (the routes, MCP, a bundle's): a few, whatever is asked.
    if (byKey.size >= 4) byKey.clear();
    byKey.set(key, markdown);
  }
  return markdown;
}

/** The site's languages, the default first; `[]` when it has none. */
export function siteLanguages(index: PageLookup): string[] {
  const languages: string[] = [];
  for (const page of index.pages) {
    for (const language of page.site?.languages ?? [])
      if (!languages.includes(language)) languages.push(language);
  }
  for (const page of index.pages)
    if (page.language && !languages.includes(page.language)) languages.push(page.language);
  return languages;
}

/** The default version (what readers land on), when the site has versions. */
function defaultVersion(index: PageLookup): string | undefined {
  return index.pages.find((page) => page.site?.versions.length)?.site?.versions[0];
}

/**
 * The pages an `llms.txt` lists: the navigation's pages (hidden ones left out) of one language
 * (the default one takes pages without a language too) and of the default version, in navigation
 * order. Pages of other versions are served as `.md` but not listed.
 */
export function navigationPages(index: PageLookup, language?: string): DocPage[] {
  const languages = siteLanguages(index);
  const wanted = language ?? languages[0];
  const version = defaultVersion(index);
  return index.pages.filter(
    (page) =>
      !page.hidden &&
      (!wanted || (page.language ?? languages[0]) === wanted) &&
      (!version || !page.version || page.version === version),
  );
}

export interface LlmsOptions {
  /** The site's name, the H1. */
  title: string;
  /** The blockquote under it. @default the home page's description, else a sentence naming the page count */
  summary?: string;
  /** The language (one of `siteLanguages`); @default the site's default language */
  language?: string;
  /** Where the Markdown is served (an origin, no trailing `/`): links become absolute. @default '' */
  markdownBase?: string;
  /** Overrides how a file's URL is written (`/guides/setup.md`, `/fr/llms.txt` → the URL to write). */
  url?: (path: string) => string;
}

const titleCase = (slug: string): string =>
  slug.replace(/[-_]+/g, ' ').replace(/^\p{L}/u, (letter) => letter.toUpperCase());

const escapeLinkText = (text: string): string => text.replace(/([[\]\\])/g, '\\$1').replace(/\s+/g, ' ');

/**
 * The navigation group a page is listed under: its outermost sidebar group; for a site without a
 * navigation (a plain folder), its top folder.
 */
function groupOf(page: DocPage, language: string | undefined): string {
  const group = page.breadcrumb?.[0]?.trim();
  if (group) return group;
  // A page the navigation lists outside any group stays out of the folder groups.
  if (page.navOrder !== undefined) return 'Pages';
  const segments = page.path.split('/').filter(Boolean);
  if (language && segments[0] === language) segments.shift();
  return segments.length > 1 ? titleCase(segments[0]!) : 'Pages';
}

const urlWriter =
  (options: LlmsOptions) =>
  (path: string): string =>
    options.url ? options.url(path) : `${(options.markdownBase ?? '').replace(/\/+$/, '')}${path}`;

function summaryOf(pages: DocPage[], options: LlmsOptions): string {
  if (options.summary?.trim()) return options.summary.trim();
  const home = pages.find((page) => page.path === '/' || page.path === `/${options.language ?? ''}`);
  return (
    home?.description ??
    `The documentation of ${options.title}: ${pages.length} ${pages.length === 1 ? 'page' : 'pages'}, each as Markdown.`
  );
}

const languageName = (code: string): string => {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
    return name.charAt(0).toUpperCase() + name.slice(1);
  } catch {
    return code;
  }
};

/** `llms.txt` of one language, in the llmstxt.org format. */
export function llmsTxt(index: PageLookup, options: LlmsOptions): string {
  const languages = siteLanguages(index);
  const language = options.language ?? languages[0];
  const pages = navigationPages(index, language);
  const url = urlWriter(options);
  const groups = new Map<string, DocPage[]>();
  for (const page of pages) {
    const group = groupOf(page, language);
    groups.set(group, [...(groups.get(group) ?? []), page]);
  }
  const full = url(llmsTxtPath({ language, site: { languages, versions: [] } }, 'llms-full.txt'));
  const lines = [
    `# ${options.title.replace(/\s+/g, ' ').trim()}`,
    '',
    `> ${summaryOf(pages, { ...options, ...(language ? { language } : {}) }).replace(/\s+/g, ' ')}`,
    '',
    `Every page below is Markdown at its URL plus \`.md\` (or its URL with \`Accept: text/markdown\`); [llms-full.txt](${full}) holds them all in one file.`,
  ];
  for (const [group, groupPages] of groups) {
    lines.push('', `## ${group}`, '');
    for (const page of groupPages) {
      const description = page.description ? `: ${page.description.replace(/\s+/g, ' ').trim()}` : '';
      lines.push(`- [${escapeLinkText(page.title)}](${url(markdownPath(page.path))})${description}`);
    }
  }
  const others = languages.filter((other) => other !== language);
  if (others.length) {
    lines.push('', '## Other languages', '');
    for (const other of others) {
      const path = llmsTxtPath({ language: other, site: { languages, versions: [] } });
      lines.push(`- [${escapeLinkText(languageName(other))}](${url(path)}): the pages in ${other}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `llms-full.txt` of one language: the site's H1 and summary, then every navigation page's
 * Markdown in navigation order, each once, each under its H1 with a `Source:` line naming its URL.
 */
export function llmsFullTxt(
  index: PageLookup,
  options: LlmsOptions & {
    markdown?: PageMarkdownOptions;
    /** Bytes (UTF-8) the file stays under: the pages past it are left out, with a line saying so. */
    maxBytes?: number;
  },
): string {
  const languages = siteLanguages(index);
  const language = options.language ?? languages[0];
  const pages = navigationPages(index, language);
  const url = urlWriter(options);
  const parts = [
    `# ${options.title.replace(/\s+/g, ' ').trim()}\n\n> ${summaryOf(pages, { ...options, ...(language ? { language } : {}) }).replace(/\s+/g, ' ')}\n`,
  ];
  const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let bytes = Buffer.byteLength(parts[0]!);
  for (const [at, page] of pages.entries()) {
    const markdown = pageMarkdown(page, index, { ...options.markdown, llmsTxtUrl: null });
    const source = `Source: ${url(markdownPath(page.path))}`;
    // The page's H1 first, then where it lives; a page without an H1 gets its title.
    const withSource = /^# [^\n]*\n/.test(markdown)
      ? markdown.replace(/^(# [^\n]*\n)/, `$1\n${source}\n`)
      : `# ${page.title}\n\n${source}\n\n${markdown}`;
    const part = withSource.trimEnd();
    bytes += Buffer.byteLength(part) + 7;
    if (bytes > limit) {
      const left = pages.length - at;
      const llms = url(llmsTxtPath({ ...(language ? { language } : {}), site: { languages, versions: [] } }));
      parts.push(
        `${left} more ${left === 1 ? 'page is' : 'pages are'} not in this file, which stops at ${Math.floor(limit / (1024 * 1024))} MB: [llms.txt](${llms}) lists every page with its Markdown URL.`,
      );
      break;
    }
    parts.push(part);
  }
  return `${parts.join('\n\n---\n\n')}\n`;
}
