/**
 * Mintlify: `docs.json` (its `navigation` of languages, versions, tabs, anchors, dropdowns,
 * products, menus, groups and pages, nested in any order) and the legacy `mint.json` (a
 * `navigation` array of groups, `versions`). A page reference is the file's path without its
 * extension and is also its URL. Files the navigation leaves out are hidden pages: built, not
 * linked, searchable only with `seo.indexing: "all"` (`seo.indexHiddenPages` in `mint.json`).
 * Files under `snippets/` are parts for other pages, never pages.
 */
import { urlOfFile } from './files.js';
import { finish, hiddenRest, isRecord, PageList, plainPage, text } from './nav.js';
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

export function readMintlify(
  configFile: 'docs.json' | 'mint.json',
  config: unknown,
  files: string[],
  defaultLanguage: string,
): SiteNavigation {
  if (!isRecord(config)) throw new Error(`${configFile} is not a JSON object`);
  const listed = new PageList(files);
  const languages: { name: string; default: boolean }[] = [];
  const versions: { name: string; default: boolean }[] = [];

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

  const walk = (node: unknown, scope: Scope): void => {
    if (typeof node === 'string') {
      addRef(node, scope);
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) walk(item, scope);
      return;
    }
    if (!isRecord(node)) return;
    const inner: Scope = { ...scope };
    const language = text(node.language);
    if (language) {
      inner.language = language;
      if (!languages.some((l) => l.name === language))
        languages.push({ name: language, default: node.default === true });
    }
    const version = text(node.version);
    if (version) {
      inner.version = version;
      if (!versions.some((v) => v.name === version))
        versions.push({ name: version, default: node.default === true });
    }
    const group = text(node.group);
    if (group) inner.breadcrumb = [...scope.breadcrumb, group];
    // A tab, anchor or dropdown may be a page itself (`tab` + `pages`) or a link (`href`): only
    // its nested nodes hold pages.
    if (typeof node.root === 'string') addRef(node.root, inner);
    for (const key of CONTAINERS) if (key in node) walk(node[key], inner);
  };

  let searchesHidden = false;
  const seo = isRecord(config.seo) ? config.seo : {};
  if (configFile === 'docs.json') {
    walk(config.navigation, { breadcrumb: [] });
    searchesHidden = seo.indexing === 'all';
  } else {
    // mint.json: groups may name their version; the first of `versions` is the default.
    for (const entry of Array.isArray(config.versions) ? config.versions : []) {
      const name = text(entry) ?? (isRecord(entry) ? text(entry.name) : undefined);
      if (name) versions.push({ name, default: false });
    }
    const defaultVersion = versions[0]?.name;
    for (const group of Array.isArray(config.navigation) ? config.navigation : []) {
      const version = isRecord(group) ? (text(group.version) ?? defaultVersion) : defaultVersion;
      walk(group, { breadcrumb: [], ...(version && isRecord(group) && group.version ? { version } : {}) });
    }
    searchesHidden = seo.indexHiddenPages === true;
  }

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
