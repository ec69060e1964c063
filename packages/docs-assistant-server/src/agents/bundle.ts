/**
 * The docs for agents in a static export bundle: `llms.txt` and `llms-full.txt` at the root (and
 * under each other language's folder, `fr/llms.txt`), and every page as Markdown beside its HTML
 * (`guides/setup.md`, the home page `index.md`). As every URL the bundle writes, links are relative
 * to the file they are in, so the bundle works from any folder of any host.
 */
import { posix } from 'node:path';
import type { DomainConfig } from '../config.js';
import { loadDocs, selectPages } from '../docs/load.js';
import type { DocPage } from '../docs/page.js';
import { siteTitle } from '../docs/sites/published.js';
import { DocsIndex } from '../retrieval/search-index.js';
import type { BundleEntry } from '../static-export/bundle.js';
import { MAX_LLMS_FULL_BYTES } from './derived.js';
import { llmsFullTxt, llmsTxt, navigationPages, pageMarkdown, siteLanguages } from './index.js';
import { llmsTxtPath, markdownPath } from './markdown.js';

export interface AgentBundleOptions {
  /** The export's version: pages of other versions are left out (pages without one are kept). */
  version?: string;
  /** The export's paths: only these pages and the pages under them. */
  paths?: string[];
  warn?: (message: string) => void;
}

/** Bundle path of a site path: `/guides/setup.md` → `guides/setup.md`. */
const fileOf = (path: string): string => path.replace(/^\/+/, '');

/** A relative URL from the bundle file `from` to the bundle file `to`. */
const relativeUrl = (from: string, to: string): string => {
  const rel = posix.relative(posix.dirname(from), to) || posix.basename(to);
  return encodeURI(rel);
};

/**
 * The bundle entries of a domain's docs for agents: its docs read as the service reads them (the
 * site's navigation, titles, languages), filtered as the export is. A job passes the pages its HTML
 * is rendered from (`static-export/render.ts` `loadDocs(…).docs`), so both come from one reading.
 */
export async function agentBundleEntries(
  domain: DomainConfig,
  options: AgentBundleOptions = {},
  exported?: readonly DocPage[],
): Promise<BundleEntry[]> {
  const pages = exported
    ? [...exported]
    : selectPages(
        await loadDocs(domain.docs, {
          ...(domain.site ? { site: domain.site } : {}),
          warn: options.warn ?? (() => {}),
        }),
        options,
      );
  if (!pages.length) return [];
  const index = new DocsIndex(pages);
  const encoder = new TextEncoder();
  const entries: BundleEntry[] = [];
  const title = siteTitle(domain, pages);
  for (const page of pages) {
    const file = fileOf(markdownPath(page.path));
    const markdown = pageMarkdown(page, index, {
      llmsTxtUrl: relativeUrl(file, fileOf(llmsTxtPath(page))),
      markdownUrl: (path) => relativeUrl(file, fileOf(markdownPath(path))),
      fileUrl: (path) => relativeUrl(file, fileOf(path)),
    });
    entries.push({ path: file, data: encoder.encode(markdown) });
  }
  const languages = siteLanguages(index);
  for (const language of languages.length ? languages : [undefined]) {
    if (language && !navigationPages(index, language).length) continue;
    const facets = { ...(language ? { language } : {}), site: { languages, versions: [] } };
    const llms = fileOf(llmsTxtPath(facets));
    const full = fileOf(llmsTxtPath(facets, 'llms-full.txt'));
    const common = { title, ...(language ? { language } : {}) };
    entries.push({
      path: llms,
      data: encoder.encode(llmsTxt(index, { ...common, url: (path) => relativeUrl(llms, fileOf(path)) })),
    });
    entries.push({
      path: full,
      data: encoder.encode(
        llmsFullTxt(index, {
          ...common,
          maxBytes: MAX_LLMS_FULL_BYTES,
          url: (path) => relativeUrl(full, fileOf(path)),
          markdown: {
            markdownUrl: (path) => relativeUrl(full, fileOf(markdownPath(path))),
            fileUrl: (path) => relativeUrl(full, fileOf(path)),
          },
        }),
      ),
    });
  }
  return entries;
}
