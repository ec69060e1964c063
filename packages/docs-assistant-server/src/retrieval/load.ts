/** Reads folders of Markdown/MDX docs into pages. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type DocPage, parseDocument, parseFrontMatter } from './markdown.js';

const DOC_FILE = /\.mdx?$/i;

async function listDocFiles(root: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && DOC_FILE.test(entry.name)) files.push(full);
    }
  };
  await walk(root);
  // Sorted so the index, and so every answer, is the same from one start to the next.
  return files.sort();
}

export interface LoadDocsOptions {
  /** Receives problems that do not stop loading (bad front matter, a page path seen twice). */
  warn?: (message: string) => void;
}

/**
 * Loads every `.md`/`.mdx` file under each folder. A missing folder is an error (a typo in
 * `--docs` should not start an assistant that knows nothing); an empty one is not.
 */
export async function loadDocs(folders: string[], options: LoadDocsOptions = {}): Promise<DocPage[]> {
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  const pages: DocPage[] = [];
  const seen = new Map<string, string>();
  for (const folder of folders) {
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory()) {
      throw new Error(
        `Docs folder "${folder}" does not exist or is not a folder; pass a folder of .md/.mdx files.`,
      );
    }
    for (const file of await listDocFiles(folder)) {
      const source = await readFile(file, 'utf8');
      const rel = relative(folder, file).replace(/\\/g, '/');
      const front = parseFrontMatter(source);
      if (front.error) warn(`${file}: front matter is not valid YAML, read without it (${front.error})`);
      const page = parseDocument(rel, source);
      const previous = seen.get(page.path);
      if (previous) {
        warn(`${file}: page path ${page.path} is already taken by ${previous}; skipped`);
        continue;
      }
      seen.set(page.path, file);
      pages.push(page);
    }
  }
  return pages;
}
