/**
 * Conversation threads. A thread belongs to the domain and the `fp` that created it; it holds the
 * finished turns, whose questions inform the retrieval of follow-ups. With a data folder, every
 * finished turn is appended to `threads.jsonl` as one complete line, so threads survive a restart
 * and a crash mid-write loses at most that one turn.
 */

// Types only: erased from every build, so nothing here loads Node's modules eagerly.
import type * as NodeFs from 'node:fs/promises';
import type * as NodePath from 'node:path';

export interface ThreadTurn {
  question: string;
  answer: string;
  /** Paths of the pages the answer cited. */
  sources: string[];
  /** ISO timestamp of when the turn finished. */
  at: string;
}

export interface Thread {
  id: string;
  /** A secret per thread, returned as `X-Thread-Key`; a client that sends it back must match. */
  key: string;
  domain: string;
  fp: string;
  createdAt: string;
  turns: ThreadTurn[];
}

interface TurnRecord {
  v: 1;
  threadId: string;
  threadKey: string;
  domain: string;
  fp: string;
  createdAt: string;
  turn: ThreadTurn;
}

export const THREADS_FILE = 'threads.jsonl';

/**
 * Node's file modules, loaded only when a data folder is given. The specifier is opaque to bundlers
 * on purpose: with the built-in's name written into `import()`, a browser build of the in-memory
 * service (Storybook's mock fetch) still resolves it and ships a stub for it; here nothing is pulled
 * in, and Node loads the built-in at run time as usual.
 */
const loadBuiltin = (name: string): Promise<unknown> => import(/* @vite-ignore */ name);
const nodeFs = () => loadBuiltin('node:fs/promises') as Promise<typeof NodeFs>;
const nodePath = () => loadBuiltin('node:path') as Promise<typeof NodePath>;

const randomId = (prefix: string): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

function isTurnRecord(value: unknown): value is TurnRecord {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const turn = record.turn as Record<string, unknown> | undefined;
  return (
    record.v === 1 &&
    typeof record.threadId === 'string' &&
    typeof record.threadKey === 'string' &&
    typeof record.domain === 'string' &&
    typeof record.fp === 'string' &&
    !!turn &&
    typeof turn.question === 'string' &&
    typeof turn.answer === 'string'
  );
}

export interface ThreadStoreOptions {
  /** Folder of `threads.jsonl`; in memory only when absent. */
  dataDir?: string;
  /**
   * Threads kept in memory; past it the least recently used is forgotten (a follow-up to it then
   * gets 404, like an unknown thread). @default 10_000
   */
  maxThreads?: number;
  warn?: (message: string) => void;
}

/** Turns of a thread kept in memory; only the latest few inform retrieval anyway. */
const MAX_TURNS_IN_MEMORY = 20;

export type ThreadLookup =
  | { ok: true; thread: Thread }
  /** Unknown, or owned by another fp/domain, or a wrong key: all look the same to the caller. */
  | { ok: false };

export class ThreadStore {
  private readonly threads = new Map<string, Thread>();
  private readonly dataDir: string | undefined;
  private readonly maxThreads: number;
  private readonly warn: (message: string) => void;
  private loaded: Promise<void> | undefined;
  // Appends run one after another so lines never interleave.
  private writing: Promise<void> = Promise.resolve();
  // Set when the file ends in a torn line: the next record starts on a fresh line.
  private needsNewline = false;

  constructor(options: ThreadStoreOptions = {}) {
    this.dataDir = options.dataDir;
    this.maxThreads = options.maxThreads ?? 10_000;
    this.warn = options.warn ?? ((message) => console.warn(`[docs-assistant] ${message}`));
  }

  /** Reads the threads file once; later calls wait for the same read. */
  load(): Promise<void> {
    this.loaded ??= this.readFile();
    return this.loaded;
  }

  private async readFile(): Promise<void> {
    if (!this.dataDir) return;
    const [{ readFile }, { join }] = await Promise.all([nodeFs(), nodePath()]);
    const file = join(this.dataDir, THREADS_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    this.needsNewline = text.length > 0 && !text.endsWith('\n');
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (!line.trim()) return;
      const last = index === lines.length - 1;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        // A last line without its newline is a write cut short by a crash: expected, not fatal.
        this.warn(
          last
            ? `${file}: skipped an incomplete last line (a write cut short, e.g. by a crash)`
            : `${file}: skipped line ${index + 1}, which is not valid JSON`,
        );
        return;
      }
      if (!isTurnRecord(record)) {
        this.warn(`${file}: skipped line ${index + 1}, which is not a thread record`);
        return;
      }
      this.apply(record);
    });
  }

  private apply(record: TurnRecord): void {
    let thread = this.threads.get(record.threadId);
    if (thread) {
      // Re-inserted so the map's order is least recently used first.
      this.threads.delete(thread.id);
      this.threads.set(thread.id, thread);
    } else {
      thread = {
        id: record.threadId,
        key: record.threadKey,
        domain: record.domain,
        fp: record.fp,
        createdAt: record.createdAt,
        turns: [],
      };
      this.threads.set(thread.id, thread);
      for (const id of this.threads.keys()) {
        if (this.threads.size <= this.maxThreads) break;
        this.threads.delete(id);
      }
    }
    thread.turns.push(record.turn);
    if (thread.turns.length > MAX_TURNS_IN_MEMORY)
      thread.turns.splice(0, thread.turns.length - MAX_TURNS_IN_MEMORY);
  }

  /** A thread for this domain and fp; another domain, fp or key gets nothing. */
  async find(id: string, owner: { domain: string; fp: string; key?: string | null }): Promise<ThreadLookup> {
    await this.load();
    const thread = this.threads.get(id);
    if (!thread || thread.domain !== owner.domain || thread.fp !== owner.fp) return { ok: false };
    if (owner.key && owner.key !== thread.key) return { ok: false };
    return { ok: true, thread };
  }

  /** A new thread's identity; it is stored once its first turn finishes. */
  create(owner: { domain: string; fp: string }): Thread {
    return {
      id: randomId('thr_'),
      key: randomId('thk_'),
      domain: owner.domain,
      fp: owner.fp,
      createdAt: new Date().toISOString(),
      turns: [],
    };
  }

  /** Records a finished turn (and the thread, on its first turn); persisted before it resolves. */
  async append(thread: Thread, turn: ThreadTurn): Promise<void> {
    await this.load();
    const record: TurnRecord = {
      v: 1,
      threadId: thread.id,
      threadKey: thread.key,
      domain: thread.domain,
      fp: thread.fp,
      createdAt: thread.createdAt,
      turn,
    };
    this.apply(record);
    if (!this.dataDir) return;
    const dataDir = this.dataDir;
    const write = this.writing.then(async () => {
      const [{ mkdir, open }, { join }] = await Promise.all([nodeFs(), nodePath()]);
      await mkdir(dataDir, { recursive: true });
      const handle = await open(join(dataDir, THREADS_FILE), 'a');
      try {
        // One write of a whole line, then fsync: a crash leaves at most a torn last line.
        const line = `${this.needsNewline ? '\n' : ''}${JSON.stringify(record)}\n`;
        await handle.appendFile(line, 'utf8');
        this.needsNewline = false;
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
    this.writing = write.catch(() => {});
    await write;
  }

  /** Waits for pending writes. */
  async flush(): Promise<void> {
    await this.writing;
  }

  get size(): number {
    return this.threads.size;
  }
}
