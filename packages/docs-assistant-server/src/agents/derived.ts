/**
 * The documents derived from an index for agents (`llms.txt`, `llms-full.txt` per language, the
 * `.md` pages), built once per index version and kept with it: a request never starts a build of
 * its own. Their links are written under the domain's configured `siteUrl` (root-relative without
 * one), never under the host a request names, so no header makes a new copy. `llms-full.txt` is
 * built a page at a time with a yield between pages, so `/health` and answers go on meanwhile, and
 * it stops at `MAX_LLMS_FULL_BYTES`.
 */
import type { DomainConfig } from '../config.js';
import { siteTitle } from '../docs/sites/published.js';
import type { DocsIndex } from '../retrieval/search-index.js';
import { llmsFullTxt, llmsTxt, navigationPages, type PageMarkdownOptions, pageMarkdown } from './index.js';

/** Largest `llms-full.txt` served or exported (bytes of UTF-8); the pages past it are named, not inlined. */
export const MAX_LLMS_FULL_BYTES = 16 * 1024 * 1024;

// Pages converted between two yields while `llms-full.txt` is built.
const PAGES_PER_SLICE = 1;

/** One derived document and the tag of its build (an `ETag`: one build, one tag). */
export interface DerivedDocument {
  text: string;
  etag: string;
}

/**
 * How the Markdown for agents of `domain` writes its links: `.md` links and the site's files under
 * its `siteUrl` when it has one, else root-relative (`/guides/setup.md`). Never from a request.
 */
export function agentMarkdownOptions(domain: Pick<DomainConfig, 'siteUrl'>): PageMarkdownOptions {
  const base = domain.siteUrl?.replace(/\/+$/, '');
  return base ? { markdownBase: base, siteBase: domain.siteUrl! } : {};
}

// Per index (so per version of the docs: a re-index makes a new index object), per domain, file
// and language: a bounded number of entries whatever requests come.
const builds = new WeakMap<DocsIndex, Map<string, Promise<DerivedDocument>>>();
let buildCount = 0;

/**
 * `llms.txt` or `llms-full.txt` of one language of `domain`'s index, built on first use and then
 * shared by every request (concurrent ones wait for the same build).
 */
export function derivedLlms(
  index: DocsIndex,
  domain: Pick<DomainConfig, 'domain' | 'siteUrl' | 'title'>,
  file: 'llms' | 'llms-full',
  language: string | undefined,
): Promise<DerivedDocument> {
  let byKey = builds.get(index);
  if (!byKey) {
    byKey = new Map();
    builds.set(index, byKey);
  }
  const key = `${domain.domain}\u0000${domain.siteUrl ?? ''}\u0000${file}\u0000${language ?? ''}`;
  let build = byKey.get(key);
  if (!build) {
    build = buildLlms(index, domain, file, language);
    // A failed build is tried again by the next request, not kept.
    build.catch(() => byKey.delete(key));
    byKey.set(key, build);
  }
  return build;
}

async function buildLlms(
  index: DocsIndex,
  domain: Pick<DomainConfig, 'domain' | 'siteUrl' | 'title'>,
  file: 'llms' | 'llms-full',
  language: string | undefined,
): Promise<DerivedDocument> {
  const markdown = agentMarkdownOptions(domain);
  const options = {
    title: siteTitle(domain, index.pages),
    ...(markdown.markdownBase ? { markdownBase: markdown.markdownBase } : {}),
    ...(language ? { language } : {}),
  };
  if (file === 'llms-full') {
    // Each page converted in a task of its own (kept by `pageMarkdown` for the join below), so the
    // service answers other requests in between.
    for (const [at, page] of navigationPages(index, language).entries()) {
      pageMarkdown(page, index, { ...markdown, llmsTxtUrl: null });
      if (at % PAGES_PER_SLICE === PAGES_PER_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const text =
    file === 'llms'
      ? llmsTxt(index, options)
      : llmsFullTxt(index, { ...options, markdown, maxBytes: MAX_LLMS_FULL_BYTES });
  buildCount++;
  return { text, etag: `"da-${file}-${buildCount}"` };
}

/** The Markdown of a page as its `.md` URL serves it (kept per page by `pageMarkdown`). */
export function derivedPage(
  index: DocsIndex,
  domain: Pick<DomainConfig, 'siteUrl'>,
  page: Parameters<typeof pageMarkdown>[0],
): string {
  return pageMarkdown(page, index, agentMarkdownOptions(domain));
}
