/**
 * VitePress: `.vitepress/config.{js,ts,mjs,mts}` — `srcDir`, `base`, `themeConfig.sidebar` (an
 * array, or an object of arrays or `{ base, items }` by path prefix), `themeConfig.nav`, and
 * `locales` (each key but `root` is a folder of translated pages with its own `themeConfig`).
 * Every Markdown file under `srcDir` is a page at its path; the ones neither sidebar nor nav links
 * are hidden pages. Not read: `rewrites`, `srcExclude` (use `.docsassistantignore`), dynamic routes.
 */
import { loadConfigObject } from './config-module.js';
import { urlOfFile } from './files.js';
import { basePath } from './links.js';
import { finish, hiddenRest, isRecord, PageList, text } from './nav.js';
import type { SiteNavigation } from './types.js';

export const VITEPRESS_CONFIGS = [
  '.vitepress/config.ts',
  '.vitepress/config.mts',
  '.vitepress/config.js',
  '.vitepress/config.mjs',
];

/** `en-US` → `en`; a locale key (`fr`, `pt-BR`) stays as written. */
const primary = (lang: string) => lang.split(/[-_]/)[0]!.toLowerCase();

type AddLink = (link: string, breadcrumb: string[], language: string | undefined, title?: string) => void;

/**
 * Calls `addLink` for each link of a `themeConfig`: its sidebar (an array, or one per path prefix,
 * with `base`), groups' labels as the breadcrumb, then its nav.
 */
function readTheme(theme: unknown, language: string | undefined, addLink: AddLink): void {
  const items = (value: unknown, breadcrumb: string[], linkBase = '') => {
    if (!Array.isArray(value)) return;
    for (const item of value) {
      if (!isRecord(item)) continue;
      const label = text(item.text);
      const itemBase = text(item.base) ?? linkBase;
      const link = text(item.link);
      if (link) addLink(link.startsWith('/') ? link : `${itemBase}${link}`, breadcrumb, language, label);
      if (item.items) items(item.items, label && !link ? [...breadcrumb, label] : breadcrumb, itemBase);
    }
  };
  if (!isRecord(theme)) return;
  const sidebar = theme.sidebar;
  if (Array.isArray(sidebar)) items(sidebar, []);
  else if (isRecord(sidebar)) {
    for (const [prefix, value] of Object.entries(sidebar)) {
      if (Array.isArray(value)) items(value, [], prefix.endsWith('/') ? prefix : `${prefix}/`);
      else if (isRecord(value)) items(value.items, [], text(value.base) ?? prefix);
    }
  }
  items(theme.nav, []);
}

export async function readVitePress(
  root: string,
  configFile: string,
  files: string[],
): Promise<SiteNavigation> {
  const config = await loadConfigObject(root, configFile);
  const srcDir = (text(config.srcDir) ?? '.').replace(/^\.\/?|\/$/g, '');
  const base = (text(config.base) ?? '/').replace(/^\/|\/$/g, '');
  const inSrc = (file: string) => (srcDir ? file.startsWith(`${srcDir}/`) : true);
  const srcFiles = files.filter(inSrc);
  const rel = (file: string) => (srcDir ? file.slice(srcDir.length + 1) : file);
  const listed = new PageList(srcFiles.map(rel));

  const locales = isRecord(config.locales) ? config.locales : {};
  const rootLocale = isRecord(locales.root) ? locales.root : {};
  const defaultLanguage = primary(text(rootLocale.lang) ?? text(config.lang) ?? 'en');
  const localeKeys = Object.keys(locales).filter((key) => key !== 'root');
  const multilingual = localeKeys.length > 0;

  const addLink = (link: string, breadcrumb: string[], language: string | undefined, title?: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return;
    const path = link
      .split(/[#?]/)[0]!
      .replace(/^\//, '')
      .replace(/\.(md|html)$/, '');
    const file = listed.resolve(path === '' ? 'index' : path, ['.md']);
    if (!file) {
      listed.missing(link, configFile);
      return;
    }
    listed.add({
      file,
      url: urlOfFile(file, base),
      breadcrumb,
      ...(title ? { navTitle: title } : {}),
      ...(language ? { language } : {}),
    });
  };
  readTheme(config.themeConfig, multilingual ? defaultLanguage : undefined, addLink);
  readTheme(rootLocale.themeConfig, multilingual ? defaultLanguage : undefined, addLink);
  for (const key of localeKeys) {
    const locale = locales[key];
    if (isRecord(locale)) readTheme(locale.themeConfig, key, addLink);
  }

  const prefixes = new Map(localeKeys.map((key) => [key, key]));
  const rest = hiddenRest(srcFiles.map(rel), listed, {
    page: (file) => {
      const language = multilingual ? (prefixes.get(file.split('/')[0] ?? '') ?? defaultLanguage) : undefined;
      return { file, url: urlOfFile(file, base), ...(language ? { language } : {}) };
    },
  });
  const site = finish('vitepress', configFile, listed, rest, {
    ...(text(config.title) ? { name: text(config.title)! } : {}),
    // `cleanUrls` off (the default) links `/guide/setup.html`; a folder's index is `/guide/` either way.
    links: {
      base: basePath(text(config.base)),
      ending: config.cleanUrls === true ? 'plain' : 'html',
      folder: 'slash',
    },
    languages: multilingual ? [defaultLanguage, ...localeKeys] : [],
    versions: [],
  });
  // Back to paths from the root, and the files outside srcDir.
  for (const page of site.pages) page.file = srcDir ? `${srcDir}/${page.file}` : page.file;
  for (const skip of site.skipped) skip.file = srcDir ? `${srcDir}/${skip.file}` : skip.file;
  for (const file of files)
    if (!inSrc(file)) site.skipped.push({ file, reason: `outside srcDir (${srcDir})` });
  // A listed page in a locale folder belongs to that locale even when a shared nav links it.
  if (multilingual) {
    for (const page of site.pages) {
      const first = page.file.slice(srcDir ? srcDir.length + 1 : 0).split('/')[0] ?? '';
      page.language = prefixes.get(first) ?? defaultLanguage;
    }
  }
  return site;
}
