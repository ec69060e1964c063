/**
 * Reads SQLite's file format just far enough to damage a chosen page of a table: the pages of a
 * b-tree, walked from its root page (https://www.sqlite.org/fileformat2.html, "B-tree Pages").
 * Parsed from the bytes rather than asked of the `dbstat` table, which not every SQLite build has.
 */
import { readFileSync } from 'node:fs';
import { openSqlite } from '../../packages/docs-assistant-server/src/storage/sqlite-binding';

const INTERIOR_INDEX = 0x02;
const INTERIOR_TABLE = 0x05;
const LEAF_INDEX = 0x0a;
const LEAF_TABLE = 0x0d;
const BTREE_FLAGS = new Set([INTERIOR_INDEX, INTERIOR_TABLE, LEAF_INDEX, LEAF_TABLE]);

export interface DatabaseLayout {
  pageSize: number;
  pageCount: number;
  /** Pages on SQLite's free list: a page there may hold stale b-tree bytes nothing reads. */
  freePages: number;
  /** Every page of each table's and index's b-tree (interior and leaf), by name. */
  trees: Map<string, { leaves: number[]; interior: number[] }>;
}

/** The pages of the tree whose root is `root` (1-based page numbers). */
function treePages(bytes: Buffer, pageSize: number, root: number): { leaves: number[]; interior: number[] } {
  const leaves: number[] = [];
  const interior: number[] = [];
  const pending = [root];
  while (pending.length) {
    const page = pending.pop()!;
    const start = (page - 1) * pageSize;
    // Page 1 starts with the 100-byte file header; its b-tree header follows it.
    const header = start + (page === 1 ? 100 : 0);
    const flag = bytes[header]!;
    if (!BTREE_FLAGS.has(flag)) throw new Error(`page ${page} is not a b-tree page (flag ${flag})`);
    if (flag === LEAF_INDEX || flag === LEAF_TABLE) {
      leaves.push(page);
      continue;
    }
    interior.push(page);
    const cells = bytes.readUInt16BE(header + 3);
    pending.push(bytes.readUInt32BE(header + 8));
    for (let cell = 0; cell < cells; cell++) {
      const offset = bytes.readUInt16BE(header + 12 + cell * 2);
      pending.push(bytes.readUInt32BE(start + offset));
    }
  }
  return { leaves: leaves.sort((a, b) => a - b), interior: interior.sort((a, b) => a - b) };
}

/** The layout of a database file nobody is writing (its write-ahead log folded in). */
export async function databaseLayout(file: string): Promise<DatabaseLayout> {
  const db = await openSqlite(file);
  let roots: { name: string; rootpage: number }[];
  let freePages: number;
  try {
    roots = db
      .prepare("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0 AND type IN ('table', 'index')")
      .all([])
      .map((row) => ({ name: String(row.name), rootpage: Number(row.rootpage) }));
    freePages = Number(Object.values(db.prepare('PRAGMA freelist_count').all([])[0] ?? {})[0]);
  } finally {
    db.close();
  }
  const bytes = readFileSync(file);
  const raw = bytes.readUInt16BE(16);
  const pageSize = raw === 1 ? 65_536 : raw;
  const trees = new Map<string, { leaves: number[]; interior: number[] }>();
  for (const { name, rootpage } of roots) trees.set(name, treePages(bytes, pageSize, rootpage));
  return { pageSize, pageCount: bytes.length / pageSize, freePages, trees };
}

/**
 * A page's worth of garbage: not zeros (a zeroed page can read as an empty one), and a first byte
 * that is no b-tree page type, so the page cannot pass for a valid one.
 */
export function garbagePage(pageSize: number, seed = 0x5eed): Buffer {
  const page = Buffer.alloc(pageSize);
  let state = seed;
  for (let i = 0; i < pageSize; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    page[i] = state >>> 24;
  }
  page[0] = 0xa7;
  return page;
}

/** What `PRAGMA quick_check` says of a file: `['ok']` when it is sound. */
export async function quickCheck(file: string): Promise<string[]> {
  const db = await openSqlite(file);
  try {
    return db
      .prepare('PRAGMA quick_check')
      .all([])
      .map((row) => String(Object.values(row)[0]));
  } catch (error) {
    return [(error as Error).message];
  } finally {
    db.close();
  }
}
