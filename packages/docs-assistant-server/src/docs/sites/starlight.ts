/**
 * Starlight (Astro): `astro.config.{mjs,ts,mts,js}` with the `starlight()` integration — its
 * `sidebar` (slugs, `{ slug }`, `{ link }`, groups with `items`, `{ autogenerate: { directory } }`),
 * `locales` (`root` for the language without a prefix, each other key a folder of translated
 * pages) and `defaultLocale`, and Astro's `base`. Pages are the Markdown files under
 * `src/content/docs/`; front matter `slug`, `sidebar.order`, `sidebar.label` and `sidebar.hidden`
 * are honoured. A page no sidebar entry reaches is a hidden page.
 */
import { loadConfigModule } from './config-module.js';
import { urlOfFile } from './files.js';
import { basePath } from './links.js';
import { finish, hiddenRest, isRecord, PageList, text } from './nav.js';
import type { SiteLinks, SiteNavigation, SitePage } from './types.js';

export const STARLIGHT_CONFIGS = [
  'astro.config.mjs',
  'astro.config.ts',
  'astro.config.mts',
  'astro.config.js',
];
const CONTENT = 'src/content/docs';

/** `en-US` → `en`. */
const primary = (lang: string) => lang.split(/[-_]/)[0]!.toLowerCase();

/** Starlight's `title`: a string, or one per language (`{ en: 'Docs', fr: 'Docs FR' }`): the default language's. */
function starlightTitle(title: unknown, language: string): string | undefined {
  if (!isRecord(title)) return text(title);
  const entries = Object.entries(title);
  const chosen = entries.find(([lang]) => primary(lang) === language) ?? entries[0];
  return chosen ? text(chosen[1]) : undefined;
}

/**
 * Astro's links: `base`, and `trailingSlash` (`'ignore'` by default: Starlight then links with the
 * slash its default `build.format: 'directory'` serves) with `build.format` (`'file'`: `/guide.html`).
 */
function astroLinks(config: Record<string, unknown>, base: string): SiteLinks {
  const format = isRecord(config.build) ? config.build.format : undefined;
  if (format === 'file') return { base: basePath(base), ending: 'html', folder: 'html' };
  if (format === 'preserve') return { base: basePath(base), ending: 'html', folder: 'slash' };
  const ending = config.trailingSlash === 'never' ? 'plain' : 'slash';
  return { base: basePath(base), ending, folder: ending };
}

export async function readStarlight(
  root: string,
  configFile: string,
  files: string[],
  frontMatter: (file: string) => Record<string, unknown>,
): Promise<SiteNavigation> {
  const loaded = await loadConfigModule(root, configFile);
  if (!isRecord(loaded)) throw new Error(`${configFile} does not export a config object`);
  // `starlight(options)` reads as its options (a package call gives back its first argument).
  const options = (Array.isArray(loaded.integrations) ? loaded.integrations : []).find(
    (entry): entry is Record<string, unknown> => isRecord(entry) && ('title' in entry || 'sidebar' in entry),
  );
  if (!options) throw new Error(`${configFile} has no starlight() integration with options`);
  const base = (text(loaded.base) ?? '').replace(/^\/|\/$/g, '');
  const inContent = (file: string) => file.startsWith(`${CONTENT}/`);
  const contentFiles = files.filter(inContent).map((file) => file.slice(CONTENT.length + 1));
  const listed = new PageList(contentFiles);

  const locales = isRecord(options.locales) ? options.locales : {};
  const keys = Object.keys(locales);
  const defaultKey = text(options.defaultLocale) ?? (keys.includes('root') ? 'root' : keys[0]);
  const languageOf = (key: string): string => {
    const locale = locales[key];
    const lang = isRecord(locale) ? text(locale.lang) : undefined;
    return key === 'root' ? primary(lang ?? 'en') : key;
  };
  const multilingual = keys.length > 1;
  // Each locale's folder prefix ('' for root) and language.
  const localeList = (keys.length ? keys : ['root']).map((key) => ({
    key,
    prefix: key === 'root' ? '' : `${key}/`,
    language: multilingual ? languageOf(key) : undefined,
  }));
  const ordered = [...localeList].sort((a, b) => Number(a.key !== defaultKey) - Number(b.key !== defaultKey));

  const front = (file: string) => frontMatter(`${CONTENT}/${file}`);
  // Front matter `slug` replaces the page's path.
  const pageOf = (file: string, language: string | undefined): Omit<SitePage, 'order' | 'breadcrumb'> => {
    const slug = text(front(file).slug);
    const url = slug ? urlOfFile(`${slug}.md`, base) : urlOfFile(file, base);
    return { file, url, ...(language ? { language } : {}) };
  };
  const sidebarOf = (file: string): Record<string, unknown> => {
    const sidebar = front(file).sidebar;
    return isRecord(sidebar) ? sidebar : {};
  };

  for (const locale of ordered) {
    const add = (slug: string, breadcrumb: string[], label?: string) => {
      const clean = slug.replace(/^\/|\/$/g, '');
      const file =
        listed.resolve(`${locale.prefix}${clean}`) ??
        (clean === '' ? listed.resolve(`${locale.prefix}index`) : undefined);
      if (!file) {
        // A translation may leave pages out; only the default locale's gaps are mistakes.
        if (locale.key === defaultKey) listed.missing(slug, configFile);
        return;
      }
      if (sidebarOf(file).hidden === true) return;
      listed.add({ ...pageOf(file, locale.language), breadcrumb, ...(label ? { navTitle: label } : {}) });
    };
    const autogenerate = (directory: string, breadcrumb: string[]) => {
      const dir = `${locale.prefix}${directory.replace(/^\/|\/$/g, '')}`;
      const inside = contentFiles.filter((file) => file.startsWith(`${dir}/`));
      const walk = (folder: string, crumbs: string[]) => {
        const entries: { order: number; name: string; run: () => void }[] = [];
        const subfolders = new Set<string>();
        for (const file of inside) {
          if (!file.startsWith(`${folder}/`)) continue;
          const rest = file.slice(folder.length + 1);
          if (rest.includes('/')) subfolders.add(rest.slice(0, rest.indexOf('/')));
          else {
            const order = sidebarOf(file).order;
            entries.push({
              order: typeof order === 'number' ? order : Number.POSITIVE_INFINITY,
              name: rest,
              run: () => add(file.slice(locale.prefix.length).replace(/\.mdx?$/i, ''), crumbs),
            });
          }
        }
        for (const sub of subfolders)
          entries.push({
            order: Number.POSITIVE_INFINITY,
            name: sub,
            run: () => walk(`${folder}/${sub}`, [...crumbs, sub]),
          });
        entries.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
        for (const entry of entries) entry.run();
      };
      walk(dir, breadcrumb);
    };
    const items = (value: unknown, breadcrumb: string[]): void => {
      if (typeof value === 'string') {
        add(value, breadcrumb);
        return;
      }
      if (Array.isArray(value)) {
        for (const item of value) items(item, breadcrumb);
        return;
      }
      if (!isRecord(value)) return;
      const label = text(value.label);
      // `slug: ''` is the home page.
      const slug = typeof value.slug === 'string' ? value.slug.trim() : undefined;
      const link = text(value.link);
      if (slug !== undefined) add(slug, breadcrumb, label);
      else if (link?.startsWith('/'))
        add(link.replace(new RegExp(`^/${base ? `${base}/` : ''}`), ''), breadcrumb, label);
      const inner = label ? [...breadcrumb, label] : breadcrumb;
      if (isRecord(value.autogenerate)) autogenerate(text(value.autogenerate.directory) ?? '', inner);
      if (value.items) items(value.items, inner);
    };
    if (Array.isArray(options.sidebar)) items(options.sidebar, []);
    // Without a sidebar, Starlight lists every page of the locale.
    else autogenerate('', []);
  }

  const languageOfFile = (file: string): string | undefined => {
    if (!multilingual) return undefined;
    const first = file.split('/')[0] ?? '';
    const match = localeList.find((l) => l.prefix && l.prefix === `${first}/`);
    return match?.language ?? localeList.find((l) => l.key === 'root')?.language;
  };
  const rest = hiddenRest(contentFiles, listed, {
    page: (file) => pageOf(file, languageOfFile(file)),
  });
  const name = starlightTitle(options.title, languageOf(defaultKey ?? 'root'));
  const site = finish('starlight', configFile, listed, rest, {
    ...(name ? { name } : {}),
    links: astroLinks(loaded, base),
    languages: multilingual ? ordered.map((l) => l.language!).filter(Boolean) : [],
    versions: [],
  });
  for (const page of site.pages) page.file = `${CONTENT}/${page.file}`;
  for (const skip of site.skipped) skip.file = `${CONTENT}/${skip.file}`;
  for (const file of files) if (!inContent(file)) site.skipped.push({ file, reason: `outside ${CONTENT}` });
  return site;
}
