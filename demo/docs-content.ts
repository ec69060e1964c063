/**
 * The docs pages of this repository, bundled at build time. The same folder is what the reference
 * service indexes, so the pages the assistant cites are the pages of this site.
 */
import { parse as parseYaml } from 'yaml';

export interface DocPage {
  /** Site path: `docs/guides/theming.md` → `/guides/theming`, `index.md` → `/`. */
  path: string;
  title: string;
  description?: string;
  body: string;
}

const files = import.meta.glob('../docs/**/*.{md,mdx}', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

function pagePath(file: string): string {
  const path = file.replace(/^\.\.\/docs/, '').replace(/\.mdx?$/, '');
  if (path === '/index') return '/';
  return path.endsWith('/index') ? path.slice(0, -'/index'.length) : path;
}

function readPage(file: string, raw: string): DocPage {
  const match = FRONT_MATTER.exec(raw);
  let meta: Record<string, unknown> = {};
  if (match?.[1]) {
    try {
      const parsed: unknown = parseYaml(match[1]);
      if (parsed && typeof parsed === 'object') meta = parsed as Record<string, unknown>;
    } catch (error) {
      console.warn(`[demo] ${file}: front matter is not valid YAML and was ignored`, error);
    }
  }
  const body = match ? raw.slice(match[0].length) : raw;
  const heading = /^#\s+(.+)$/m.exec(body)?.[1];
  const path = pagePath(file);
  return {
    path,
    title: typeof meta.title === 'string' ? meta.title : (heading ?? path),
    description: typeof meta.description === 'string' ? meta.description : undefined,
    body,
  };
}

/** Preferred order of the navigation; pages not named here follow alphabetically. */
const NAV_ORDER = [
  '/',
  '/getting-started',
  '/props',
  '/headless-hook',
  '/custom-renderers',
  '/context-collectors',
  '/theming',
  '/accessibility',
  '/threads-and-storage',
  '/errors',
  '/security',
  '/reference-service',
  '/api-protocol',
  '/static-export',
  '/troubleshooting',
  '/faq',
];

const rank = (path: string) => {
  const index = NAV_ORDER.indexOf(path);
  return index === -1 ? NAV_ORDER.length : index;
};

export const pages: DocPage[] = Object.entries(files)
  .map(([file, raw]) => readPage(file, raw))
  .sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));

export function findPage(path: string): DocPage | undefined {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return pages.find((page) => page.path === normalised);
}
