/** Finds which docs framework a folder is, by its config file, and reads that config. */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DOCUSAURUS_CONFIGS, readDocusaurus } from './docusaurus.js';
import { readFolderSite } from './folder.js';
import { readMintlify } from './mintlify.js';
import { readMkDocs } from './mkdocs.js';
import { readStarlight, STARLIGHT_CONFIGS } from './starlight.js';
import type { SiteNavigation } from './types.js';
import { readVitePress, VITEPRESS_CONFIGS } from './vitepress.js';

const exists = async (file: string): Promise<boolean> => !!(await stat(file).catch(() => null))?.isFile();

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
      if (await exists(join(root, file))) {
        // `docs.json` is a common name; it is Mintlify's when it has a navigation.
        // An Astro config is a Starlight site's when it uses the integration.
        if (framework === 'starlight') {
          const source = await readFile(join(root, file), 'utf8');
          if (!source.includes('@astrojs/starlight')) continue;
        }
        if (file === 'docs.json') {
          const json = await readJson(join(root, file)).catch(() => null);
          if (!json || typeof json !== 'object' || !('navigation' in json)) continue;
        }
        return { framework, file };
      }
    }
  }
  return undefined;
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8')) as unknown;
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
  const found = options.detectFramework ? await findSiteConfig(root) : undefined;
  if (found) {
    try {
      switch (found.framework) {
        case 'mintlify':
          return readMintlify(
            found.file as 'docs.json' | 'mint.json',
            await readJson(join(root, found.file)),
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
