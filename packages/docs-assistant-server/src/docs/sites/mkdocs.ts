/**
 * MkDocs: `mkdocs.yml` — `docs_dir` (default `docs`), `nav` (page paths, `Title: path` pairs and
 * `Section: [...]` lists), `use_directory_urls`, `site_url`'s path, and the `i18n` plugin
 * (mkdocs-static-i18n) in either layout: `docs_structure: suffix` (`setup.fr.md`) or `folder`
 * (`docs/fr/setup.md`), its languages with `locale` and `default`. Without `nav`, every file is
 * listed in path order, as MkDocs does. A file `nav` leaves out is a hidden page.
 */

import { parse as parseYaml } from 'yaml';
import { docsRoot } from '../files.js';
import { urlOfFile } from './files.js';
import { basePath } from './links.js';
import { finish, hiddenRest, isRecord, PageList, text, walkNav } from './nav.js';
import type { SiteNavigation } from './types.js';

interface I18n {
  structure: 'suffix' | 'folder';
  default: string;
  locales: string[];
}

function i18nPlugin(plugins: unknown): I18n | undefined {
  const list = Array.isArray(plugins)
    ? plugins
    : isRecord(plugins)
      ? Object.entries(plugins).map(([k, v]) => ({ [k]: v }))
      : [];
  for (const entry of list) {
    if (!isRecord(entry) || !isRecord(entry.i18n)) continue;
    const options = entry.i18n;
    const languages = Array.isArray(options.languages) ? options.languages.filter(isRecord) : [];
    const locales = languages.map((l) => text(l.locale)).filter((l): l is string => !!l);
    if (!locales.length) continue;
    const chosen = languages.find((l) => l.default === true);
    const fallback = chosen ? text(chosen.locale) : locales[0];
    return {
      structure: options.docs_structure === 'folder' ? 'folder' : 'suffix',
      default: fallback ?? locales[0]!,
      locales,
    };
  }
  return undefined;
}

/**
 * Whether `markdown_extensions` turns on `attr_list` (`- attr_list`, `- attr_list: {}`, its full
 * module name, or a mapping of extensions), with which a heading can name its own anchor.
 */
function readsAttrLists(extensions: unknown): boolean {
  const names = Array.isArray(extensions)
    ? extensions.flatMap((entry) => (isRecord(entry) ? Object.keys(entry) : [entry]))
    : isRecord(extensions)
      ? Object.keys(extensions)
      : [];
  return names.some((name) => name === 'attr_list' || name === 'markdown.extensions.attr_list');
}

/**
 * A file's language, the file of its default-language original, and its URL, under `base` and
 * the i18n plugin's layout (none, `suffix` or `folder`).
 */
function locator(
  i18n: ReturnType<typeof i18nPlugin>,
  base: string,
): (file: string) => { language?: string; original: string; url: string } {
  // With use_directory_urls off a page is `setup.html`: the path without the extension still
  // names it (the service drops `.html` from a reader's path too).
  const urlPath = (path: string, prefix: string) => urlOfFile(path, [base, prefix].filter(Boolean).join('/'));
  return (file) => {
    if (!i18n) return { original: file, url: urlPath(file, '') };
    if (i18n.structure === 'suffix') {
      const match = /^(.*)\.([A-Za-z]{2}(?:[-_][A-Za-z]{2,4})?)\.(mdx?)$/.exec(file);
      if (match && i18n.locales.includes(match[2]!)) {
        const original = `${match[1]}.${match[3]}`;
        const language = match[2]!;
        return { language, original, url: urlPath(original, language === i18n.default ? '' : language) };
      }
      return { language: i18n.default, original: file, url: urlPath(file, '') };
    }
    const first = file.split('/')[0]!;
    if (i18n.locales.includes(first)) {
      const original = file.slice(first.length + 1);
      return { language: first, original, url: urlPath(original, first === i18n.default ? '' : first) };
    }
    return { language: i18n.default, original: file, url: urlPath(file, '') };
  };
}

function readConfig(root: string, configFile: string): Record<string, unknown> {
  // Python tags (`!!python/name:…`, `!ENV`) are left as plain values: only the structure is needed.
  const config: unknown = parseYaml(docsRoot(root).read(configFile, 'config').toString('utf8'), {
    customTags: [
      { tag: '!ENV', resolve: (value: string) => value },
      { tag: '!relative', resolve: (value: string) => value },
    ],
    logLevel: 'silent',
  });
  if (!isRecord(config)) throw new Error(`${configFile} is not a YAML mapping`);
  return config;
}

/**
 * Calls `addRef` for each page `nav` lists, in its order, with its sections' titles as the
 * breadcrumb and its own title; without a nav, for every page (`originals`), index first, then in
 * path order, as MkDocs lists them.
 */
function listNav(
  nav: unknown,
  originals: Iterable<string>,
  addRef: (ref: string, breadcrumb: string[], title?: string) => void,
): void {
  const walk = (value: unknown, breadcrumb: string[]): void =>
    walkNav(value, breadcrumb, addRef, (node) => {
      for (const [title, inner] of Object.entries(node)) {
        if (typeof inner === 'string') addRef(inner, breadcrumb, title);
        else walk(inner, [...breadcrumb, title]);
      }
    });
  if (Array.isArray(nav)) walk(nav, []);
  else {
    const index = (path: string) => Number(!/(^|\/)index\.md$/.test(path));
    for (const original of [...originals].sort((a, b) => index(a) - index(b) || a.localeCompare(b)))
      addRef(original, []);
  }
}

export async function readMkDocs(root: string, configFile: string, files: string[]): Promise<SiteNavigation> {
  const config = readConfig(root, configFile);
  const docsDir = (text(config.docs_dir) ?? 'docs').replace(/^\.\/?|\/$/g, '');
  const siteUrl = text(config.site_url);
  const base = siteUrl ? new URL(siteUrl, 'http://localhost').pathname.replace(/^\/|\/$/g, '') : '';
  const i18n = i18nPlugin(config.plugins);
  const inDocs = (file: string) => file.startsWith(`${docsDir}/`);
  const docFiles = files.filter(inDocs).map((file) => file.slice(docsDir.length + 1));
  const listed = new PageList(docFiles);

  const locate = locator(i18n, base);

  // The files of each original, per language: a nav entry lists the page in every language.
  const byOriginal = new Map<string, string[]>();
  for (const file of docFiles) {
    const { original } = locate(file);
    byOriginal.set(original, [...(byOriginal.get(original) ?? []), file]);
  }
  const addRef = (ref: string, breadcrumb: string[], title?: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return;
    const clean = ref.replace(/^\.?\//, '');
    // In the folder layout, nav paths are written from the default language's folder.
    const original =
      i18n?.structure === 'folder' && clean.startsWith(`${i18n.default}/`)
        ? clean.slice(i18n.default.length + 1)
        : clean;
    const matches = byOriginal.get(original) ?? (listed.resolve(clean) ? [listed.resolve(clean)!] : []);
    if (!matches.length) {
      listed.missing(ref, configFile);
      return;
    }
    // The default language's page first, then its translations.
    const ordered = [...matches].sort(
      (a, b) => Number(locate(a).language !== i18n?.default) - Number(locate(b).language !== i18n?.default),
    );
    for (const file of ordered) {
      const { language, url } = locate(file);
      listed.add({
        file,
        url,
        breadcrumb,
        ...(title ? { navTitle: title } : {}),
        ...(language ? { language } : {}),
      });
    }
  };
  listNav(config.nav, byOriginal.keys(), addRef);

  const rest = hiddenRest(docFiles, listed, {
    page: (file) => {
      const { language, url } = locate(file);
      return { file, url, ...(language ? { language } : {}) };
    },
  });
  const directoryUrls = config.use_directory_urls !== false;
  const site = finish('mkdocs', configFile, listed, rest, {
    ...(text(config.site_name) ? { name: text(config.site_name)! } : {}),
    // `use_directory_urls` (default true) links `/guide/setup/`; off, `/guide/setup.html` and
    // `/guide/index.html`. Without `site_url` MkDocs writes relative links: any base serves.
    links: {
      ...(siteUrl ? { base: basePath(base) } : {}),
      ending: directoryUrls ? 'slash' : 'html',
      folder: directoryUrls ? 'slash' : 'index.html',
    },
    languages: i18n ? [i18n.default, ...i18n.locales.filter((l) => l !== i18n.default)] : [],
    versions: [],
    ...(readsAttrLists(config.markdown_extensions) ? { attrList: true } : {}),
  });
  for (const page of site.pages) page.file = `${docsDir}/${page.file}`;
  for (const skip of site.skipped) skip.file = `${docsDir}/${skip.file}`;
  for (const file of files)
    if (!inDocs(file)) site.skipped.push({ file, reason: `outside docs_dir (${docsDir})` });
  return site;
}
