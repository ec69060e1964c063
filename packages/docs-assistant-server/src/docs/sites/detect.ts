/** Finds which docs framework a folder is, by its config file, and reads that config. */
import { docsRoot } from '../files.js';
import { DOCUSAURUS_CONFIGS, readDocusaurus } from './docusaurus.js';
import { languageCode } from './files.js';
import { readFolderSite } from './folder.js';
import { isFolderPage } from './links.js';
import { readMintlify } from './mintlify.js';
import { readWithRefs } from './mintlify-refs.js';
import { readMkDocs } from './mkdocs.js';
import { readStarlight, STARLIGHT_CONFIGS } from './starlight.js';
import type { SiteNavigation } from './types.js';
import { readVitePress, VITEPRESS_CONFIGS } from './vitepress.js';

/** The framework config file of a folder, first match in this order, or undefined. */
export async function findSiteConfig(
  root: string,
): Promise<{ framework: SiteNavigation['framework']; file: string } | undefined> {
  const candidates: [SiteNavigation['framework'], string[]][] = [
    ['mintlify', ['docs.json', 'mint.json']],
    ['docusaurus', DOCUSAURUS_CONFIGS],
    ['vitepress', VITEPRESS_CONFIGS],
    ['mkdocs', ['mkdocs.yml', 'mkdocs.yaml']],
    ['starlight', STARLIGHT_CONFIGS],
  ];
  for (const [framework, files] of candidates) {
    for (const file of files) {
      if (docsRoot(root).isFile(file)) {
        // `docs.json` is a common name; it is Mintlify's when it has a navigation.
        // An Astro config is a Starlight site's when it uses the integration.
        if (framework === 'starlight') {
          const source = docsRoot(root).readText(file, 'config');
          if (!source?.includes('@astrojs/starlight')) continue;
        }
        if (file === 'docs.json') {
          const json = readJson(root, file);
          if (!json || typeof json !== 'object' || !('navigation' in json)) continue;
        }
        return { framework, file };
      }
    }
  }
  return undefined;
}

/** A JSON config by the docs root's rule; null when it is missing, refused or not JSON. */
function readJson(root: string, file: string): unknown {
  const text = docsRoot(root).readText(file, 'config');
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * A language's home page (`index.mdx` at the site's root or at a language's root, Starlight's
 * `src/content/docs/fr/index.mdx`) is what a reader of that language lands on: a page of the site
 * even when the navigation does not list it.
 */
function listLanguageHomes(site: SiteNavigation): SiteNavigation {
  const base = site.links?.base ?? '';
  const listed = site.pages.filter((page) => !page.hidden).length;
  let order = listed;
  for (const page of site.pages) {
    if (!page.hidden || !isFolderPage(page.file)) continue;
    const inSite =
      page.url.startsWith(`${base}/`) || page.url === base ? page.url.slice(base.length) : page.url;
    const segments = inSite.split('/').filter(Boolean);
    const home =
      segments.length === 0 ||
      // A language's folder: one of the site's languages, or a language code on a site with several
      // (a locale key such as Starlight's `zh-cn` where the language reads `zh`).
      (segments.length === 1 &&
        (site.languages.includes(segments[0]!) ||
          (site.languages.length > 0 && !!languageCode(segments[0]!))));
    if (!home) continue;
    delete page.hidden;
    page.order = order++;
  }
  if (order === listed) return site;
  // Listed pages first, in navigation order, then the hidden ones.
  return { ...site, pages: [...site.pages.filter((p) => !p.hidden), ...site.pages.filter((p) => p.hidden)] };
}

/**
 * The site's navigation: from its framework's config when there is one, else the folder walk. A
 * config that cannot be read (a syntax error, a config needing esbuild) falls back to the folder
 * walk with a warning that says why.
 */
export async function readSite(
  root: string,
  files: string[],
  sources: Map<string, string>,
  options: {
    defaultLanguage: string;
    detectFramework: boolean;
    /** A file's front matter data, parsed once per load. */
    front: (file: string) => Record<string, unknown>;
  },
): Promise<SiteNavigation> {
  return listLanguageHomes(await readSiteNavigation(root, files, sources, options));
}

async function readSiteNavigation(
  root: string,
  files: string[],
  sources: Map<string, string>,
  options: Parameters<typeof readSite>[3],
): Promise<SiteNavigation> {
  const found = options.detectFramework ? await findSiteConfig(root) : undefined;
  if (found) {
    try {
      switch (found.framework) {
        case 'mintlify':
          return readMintlify(
            found.file as 'docs.json' | 'mint.json',
            readWithRefs(root, found.file),
            files,
            options.defaultLanguage,
          );
        case 'docusaurus':
          return await readDocusaurus(root, found.file, files, options.front);
        case 'vitepress':
          return await readVitePress(root, found.file, files);
        case 'mkdocs':
          return await readMkDocs(root, found.file, files);
        case 'starlight':
          return await readStarlight(root, found.file, files, options.front);
      }
    } catch (error) {
      const site = readFolderSite(files, sources, options.defaultLanguage);
      site.warnings.unshift(
        `${found.file}: ${error instanceof Error ? error.message : String(error)}; read as a plain folder of Markdown instead`,
      );
      return site;
    }
  }
  return readFolderSite(files, sources, options.defaultLanguage);
}
