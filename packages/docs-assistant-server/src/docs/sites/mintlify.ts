/**
 * Mintlify: `docs.json` (its `navigation` of languages, versions, tabs, anchors, dropdowns,
 * products, menus, groups and pages, nested in any order) and the legacy `mint.json` (a
 * `navigation` array of groups, `versions`). A page reference is the file's path without its
 * extension and is also its URL. Files the navigation leaves out are hidden pages: built, not
 * linked, searchable only with `seo.indexing: "all"` (`seo.indexHiddenPages` in `mint.json`).
 * Files under `snippets/` are parts for other pages, never pages.
 */
import { urlOfFile } from './files.js';
import { finish, hiddenRest, isRecord, PageList, plainPage, text, walkNav } from './nav.js';
import type { SiteNavigation } from './types.js';

// Keys under which a docs.json navigation node nests further nodes, and the key naming each.
const CONTAINERS = [
  'languages',
  'versions',
  'products',
  'tabs',
  'anchors',
  'dropdowns',
  'menu',
  'groups',
  'pages',
];
// `GET /users`: a page Mintlify generates from an OpenAPI file, with no Markdown behind it.
const OPENAPI_REF = /^(get|post|put|patch|delete|head|options|trace|webhook)\s/i;

interface Scope {
  breadcrumb: string[];
  language?: string;
  version?: string;
}

const neverPage = (file: string): string | undefined =>
  /^snippets\//.test(file) ? 'snippet (files under snippets/ are imported by pages)' : undefined;

/** The entry marked `default: true`, else the first. */
function defaultFirst(entries: { name: string; default: boolean }[]): string[] {
  const names = entries.map((e) => e.name);
  const chosen = entries.find((e) => e.default)?.name ?? names[0];
  return chosen ? [chosen, ...names.filter((n) => n !== chosen)] : [];
}

type Facet = { name: string; default: boolean };

/** Adds a language or version to the site's list once (the node that names it first says if it is the default); gives its name. */
function noteFacet(list: Facet[], name: string, isDefault: boolean): string {
  if (!list.some((facet) => facet.name === name)) list.push({ name, default: isDefault });
  return name;
}

/** mint.json's navigation: groups may name their version; the first of `versions` is the default. */
function walkMintJson(
  config: Record<string, unknown>,
  versions: Facet[],
  walk: (node: unknown, scope: Scope) => void,
): void {
  for (const entry of Array.isArray(config.versions) ? config.versions : []) {
    const name = text(entry) ?? (isRecord(entry) ? text(entry.name) : undefined);
    if (name) versions.push({ name, default: false });
  }
  const defaultVersion = versions[0]?.name;
  for (const group of Array.isArray(config.navigation) ? config.navigation : []) {
    const version = isRecord(group) ? (text(group.version) ?? defaultVersion) : defaultVersion;
    walk(group, { breadcrumb: [], ...(version && isRecord(group) && group.version ? { version } : {}) });
  }
}

export function readMintlify(
  configFile: 'docs.json' | 'mint.json',
  config: unknown,
  files: string[],
  defaultLanguage: string,
): SiteNavigation {
  if (!isRecord(config)) throw new Error(`${configFile} is not a JSON object`);
  const listed = new PageList(files);
  const languages: Facet[] = [];
  const versions: Facet[] = [];

  const addRef = (ref: string, scope: Scope) => {
    if (OPENAPI_REF.test(ref) || /^https?:/.test(ref)) return;
    const file = listed.resolve(ref);
    if (!file) {
      listed.missing(ref, configFile);
      return;
    }
    listed.add({
      file,
      url: urlOfFile(ref),
      breadcrumb: scope.breadcrumb,
      ...(scope.language ? { language: scope.language } : {}),
      ...(scope.version ? { version: scope.version } : {}),
    });
  };

  const walk = (value: unknown, scope: Scope): void =>
    walkNav(value, scope, addRef, (node) => {
      const inner: Scope = { ...scope };
      const language = text(node.language);
      if (language) inner.language = noteFacet(languages, language, node.default === true);
      const version = text(node.version);
      if (version) inner.version = noteFacet(versions, version, node.default === true);
      const group = text(node.group);
      if (group) inner.breadcrumb = [...scope.breadcrumb, group];
      // A tab, anchor or dropdown may be a page itself (`tab` + `pages`) or a link (`href`): only
      // its nested nodes hold pages.
      if (typeof node.root === 'string') addRef(node.root, inner);
      for (const key of CONTAINERS) if (key in node) walk(node[key], inner);
    });

  const seo = isRecord(config.seo) ? config.seo : {};
  if (configFile === 'docs.json') walk(config.navigation, { breadcrumb: [] });
  else walkMintJson(config, versions, walk);
  const searchesHidden = configFile === 'docs.json' ? seo.indexing === 'all' : seo.indexHiddenPages === true;

  const languageList = defaultFirst(languages);
  // Translations live under their language's folder (`fr/…`): hidden pages take the language of theirs.
  const prefixes = new Map(languageList.map((l) => [l, l]));
  const fallbackLanguage = languageList.length ? (languageList[0] ?? defaultLanguage) : undefined;
  const rest = hiddenRest(files, listed, {
    neverPages: neverPage,
    page: (file) => plainPage(file, prefixes, fallbackLanguage),
  });
  return finish('mintlify', configFile, listed, rest, {
    ...(text(config.name) ? { name: text(config.name)! } : {}),
    // Mintlify serves pages at their path, no extension or trailing slash; it has no base setting.
    links: { ending: 'plain', folder: 'plain' },
    languages: languageList,
    versions: defaultFirst(versions),
    searchesHidden,
  });
}
