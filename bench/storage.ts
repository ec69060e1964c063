/**
 * Storage benchmark (issue 18), part of `npm run bench`; alone: `npx tsx bench/storage.ts [--quick]`.
 *
 * 1. The two embedded candidates, measured the same way on this machine: SQLite (`better-sqlite3`)
 *    and PGlite (`@electric-sql/pglite`, Postgres in WASM): start-up on a fresh and on an existing
 *    data folder, answer turns written per second (a turn insert and its thread's update in one
 *    transaction: SQLite in WAL with synchronous=NORMAL as the service runs it, PGlite with its
 *    defaults), and the
 *    size installed. The choice the service made follows from these.
 * 2. What storage adds to each answer turn of the service, as it runs it (both rate-limit counters,
 *    the thread read, the turn's transaction; a new thread every 5 turns), from 8 conversations in
 *    flight per process: turns stored per second and the latency of that storage work, embedded
 *    (SQLite file) and PostgreSQL (a local server, fsync on), with 1 and 2 service processes
 *    (replicas) on the same database.
 *
 * Figures go to `bench/results/storage.json`; `storageSection()` renders them for results.md.
 * Wall-clock figures of a shared machine: compare runs of the same day, not across machines.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'results', 'storage.json');

interface CandidateRun {
  name: 'sqlite' | 'pglite';
  package: string;
  version: string;
  startupFreshMs: number;
  startupExistingMs: number;
  writesPerSecond: number;
  p99Ms: number;
  installedMB: number;
  /** Measured once, by hand (see `INSTALL`): an install is not part of a benchmark run. */
  installSeconds: number;
  installNote: string;
}

interface ServiceStorageRun {
  backend: 'embedded' | 'postgres';
  replicas: number;
  turns: number;
  turnsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface StorageResults {
  at: string;
  quick: boolean;
  /** The embedded database the service uses, and why (from these figures). */
  choice: { chosen: string; why: string };
  candidates: CandidateRun[];
  service: ServiceStorageRun[];
}

/**
 * Install time on this machine, measured by hand on 2026-11-25: `npm install @electric-sql/pglite@0.5.16`
 * into an empty folder took 0.95 s (one tarball, no install script); `better-sqlite3@12.11.1` built
 * from source with node-gyp in about 70 s (no prebuilt binary could be downloaded here; where
 * prebuild-install reaches GitHub it takes seconds).
 */
const INSTALL = {
  sqlite: {
    seconds: 70,
    note: 'compiled from source (no prebuilt binary reachable); seconds with a prebuilt one',
  },
  pglite: { seconds: 0.95, note: 'one tarball, no install script' },
};

/** The choice these figures support (checked against each run's figures by whoever reads them). */
const CHOICE = {
  chosen: 'better-sqlite3 (SQLite)',
  why: 'It starts in tens of milliseconds where PGlite takes about 2 s on an existing folder and 10 s or more on a new one, and it stores several times more answer turns per second (a turn insert and its thread update in one transaction) with a p99 an order of magnitude lower. PGlite is pure WASM (no compile at install) and speaks the server dialect, but the shared schema is plain SQL both run unchanged, so that advantage is small; better-sqlite3 installs a prebuilt binary where one can be downloaded and compiles (about 70 s here) where not. PGlite stays a root devDependency, for this measurement only; the server package does not ship it.',
};

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

function packageVersion(name: string): string | undefined {
  const file = join(ROOT, 'node_modules', name, 'package.json');
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
    : undefined;
}

/** Runs this file in a child process with `args`; resolves with the JSON it prints last. */
function child<T>(
  args: string[],
  onLine?: (line: string, write: (text: string) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let last = '';
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      last = line;
      onLine?.(line, (text) => proc.stdin!.write(text));
    });
    proc.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/storage.ts ${args[0]} exited with ${code}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`bench/storage.ts ${args[0]} printed no result: ${last}`));
      }
    });
  });
}

// ---- 1. Candidates (each in a child process: start-up includes loading the module) ----

const CANDIDATE_SCHEMA = [
  'CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, updated_ms BIGINT NOT NULL, bytes BIGINT NOT NULL DEFAULT 0, turn_count INTEGER NOT NULL DEFAULT 0)',
  'CREATE TABLE IF NOT EXISTS turns (thread_id TEXT NOT NULL, seq INTEGER NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL, sources TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (thread_id, seq))',
];
const ANSWER = 'An answer of about the length the extractive engine writes. '.repeat(25);

/** What the candidate run uses of PGlite. */
interface PGliteLike {
  waitReady: Promise<void>;
  exec(sql: string): Promise<unknown>;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  transaction<T>(
    work: (tx: { query(sql: string, params?: unknown[]): Promise<unknown> }) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

async function candidateWorker(name: string, dir: string, writes: number): Promise<void> {
  const started = performance.now();
  const latencies: number[] = [];
  const thread = `thr_${process.pid}`;
  let startupMs: number;
  let elapsed: number;
  if (name === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(dir, 'db.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    for (const statement of CANDIDATE_SCHEMA) db.exec(statement);
    db.prepare('SELECT 1').get();
    startupMs = performance.now() - started;
    db.prepare('INSERT INTO threads (id, key_hash, updated_ms) VALUES (?, ?, ?)').run(
      thread,
      'h',
      Date.now(),
    );
    const insert = db.prepare('INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?)');
    const update = db.prepare(
      'UPDATE threads SET updated_ms = ?, bytes = bytes + ?, turn_count = turn_count + 1 WHERE id = ?',
    );
    const turn = db.transaction((n: number) => {
      insert.run(thread, n, `question ${n}`, ANSWER, '[]', new Date().toISOString());
      update.run(Date.now(), ANSWER.length, thread);
    });
    const loop = performance.now();
    for (let n = 0; n < writes; n++) {
      const at = performance.now();
      turn(n);
      latencies.push(performance.now() - at);
    }
    elapsed = performance.now() - loop;
    db.close();
  } else {
    // By name only: the candidate that was not chosen may be dropped from the dependencies, and
    // this file must still type-check and run (its figures are then kept as recorded).
    const specifier = '@electric-sql/pglite';
    const { PGlite } = (await import(specifier)) as { PGlite: new (dir: string) => PGliteLike };
    const db = new PGlite(join(dir, 'pgdata'));
    await db.waitReady;
    for (const statement of CANDIDATE_SCHEMA) await db.exec(statement);
    await db.query('SELECT 1');
    startupMs = performance.now() - started;
    await db.query('INSERT INTO threads (id, key_hash, updated_ms) VALUES ($1, $2, $3)', [
      thread,
      'h',
      Date.now(),
    ]);
    const loop = performance.now();
    for (let n = 0; n < writes; n++) {
      const at = performance.now();
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO turns VALUES ($1, $2, $3, $4, $5, $6)', [
          thread,
          n,
          `question ${n}`,
          ANSWER,
          '[]',
          new Date().toISOString(),
        ]);
        await tx.query(
          'UPDATE threads SET updated_ms = $1, bytes = bytes + $2, turn_count = turn_count + 1 WHERE id = $3',
          [Date.now(), ANSWER.length, thread],
        );
      });
      latencies.push(performance.now() - at);
    }
    elapsed = performance.now() - loop;
    await db.close();
  }
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      startupMs,
      writesPerSecond: writes / (elapsed / 1000),
      p99Ms: quantile(latencies, 0.99),
    }),
  );
}

async function measureCandidates(
  quick: boolean,
  recorded: CandidateRun[] | undefined,
): Promise<CandidateRun[]> {
  const runs: CandidateRun[] = [];
  const candidates = [
    { name: 'sqlite' as const, package: 'better-sqlite3', writes: quick ? 500 : 2000 },
    { name: 'pglite' as const, package: '@electric-sql/pglite', writes: quick ? 200 : 800 },
  ];
  for (const candidate of candidates) {
    const version = packageVersion(candidate.package);
    if (!version) {
      // Dropped from the dependencies after the choice: its figures stay as last measured.
      const previous = recorded?.find((r) => r.name === candidate.name);
      if (previous) runs.push(previous);
      console.log(`  ${candidate.package} is not installed: keeping its recorded figures`);
      continue;
    }
    const dir = await mkdtemp(join(tmpdir(), `da-bench-${candidate.name}-`));
    try {
      type Worker = { startupMs: number; writesPerSecond: number; p99Ms: number };
      const fresh = await child<Worker>(['--candidate', candidate.name, dir, String(candidate.writes)]);
      const existing = await child<Worker>(['--candidate', candidate.name, dir, String(candidate.writes)]);
      const run: CandidateRun = {
        name: candidate.name,
        package: candidate.package,
        version,
        startupFreshMs: fresh.startupMs,
        startupExistingMs: existing.startupMs,
        writesPerSecond: (fresh.writesPerSecond + existing.writesPerSecond) / 2,
        p99Ms: Math.max(fresh.p99Ms, existing.p99Ms),
        installedMB: folderBytes(join(ROOT, 'node_modules', candidate.package)) / 1024 / 1024,
        installSeconds: INSTALL[candidate.name].seconds,
        installNote: INSTALL[candidate.name].note,
      };
      console.log(
        `  ${candidate.package}: start ${run.startupFreshMs.toFixed(0)} ms fresh / ${run.startupExistingMs.toFixed(0)} ms existing, ${run.writesPerSecond.toFixed(0)} turns/s (p99 ${run.p99Ms.toFixed(2)} ms), ${run.installedMB.toFixed(1)} MB`,
      );
      runs.push(run);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return runs;
}

// ---- 2. The service's storage work per answer turn ----

interface WorkerSpec {
  dataDir?: string;
  databaseUrl?: string;
  turns: number;
  inFlight: number;
}

async function serviceWorker(spec: WorkerSpec): Promise<void> {
  const { createStorage } = await import('../packages/docs-assistant-server/src/storage/index');
  const { hashThreadKey } = await import('../packages/docs-assistant-server/src/threads');
  const storage = createStorage(
    spec.databaseUrl ? { databaseUrl: spec.databaseUrl } : { dataDir: spec.dataDir! },
  );
  await storage.open();
  const keyHash = await hashThreadKey('thk_bench');
  const caps = { maxThreadBytes: 256 * 1024, maxTurns: 20 };
  const latencies: number[] = [];
  let next = 0;
  let conversation = 0;
  // One answer turn's storage work, as the service does it.
  const turn = async (threadId: string, first: boolean) => {
    const at = performance.now();
    const now = Date.now();
    await storage.incrementCounter(
      `ip:86400000:10.0.${process.pid % 250}.${conversation % 250}`,
      86_400_000,
      now,
    );
    await storage.incrementCounter('org:3600000:bench', 3_600_000, now);
    if (first) {
      await storage.createThread(
        { id: threadId, keyHash, domain: 'bench', fp: 'reader', createdAt: new Date(now).toISOString() },
        now,
      );
    } else {
      await storage.getThread(threadId, 20);
    }
    await storage.appendTurn(
      threadId,
      {
        question: `How do I configure feature ${next}?`,
        answer: ANSWER,
        sources: ['/guides/setup'],
        at: new Date(now).toISOString(),
      },
      caps,
      now,
    );
    latencies.push(performance.now() - at);
  };
  const lane = async () => {
    while (next < spec.turns) {
      const id = `thr_${process.pid}_${conversation++}`;
      for (let n = 0; n < 5 && next < spec.turns; n++) {
        next++;
        await turn(id, n === 0);
      }
    }
  };
  // Ready, then wait for the go (all replicas start together).
  console.log('ready');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const started = performance.now();
  await Promise.all(Array.from({ length: spec.inFlight }, lane));
  const elapsedMs = performance.now() - started;
  await storage.close();
  console.log(JSON.stringify({ turns: latencies.length, elapsedMs, latencies }));
  process.stdin.destroy();
}

async function measureService(quick: boolean): Promise<ServiceStorageRun[]> {
  const { startTestPostgres } = await import('../tests/server/storage-postgres');
  const server = await startTestPostgres({ durable: true });
  const runs: ServiceStorageRun[] = [];
  const turns = quick ? 600 : 3000;
  try {
    for (const backend of ['embedded', 'postgres'] as const) {
      for (const replicas of [1, 2]) {
        const dataDir =
          backend === 'embedded' ? await mkdtemp(join(tmpdir(), 'da-bench-storage-')) : undefined;
        const databaseUrl =
          backend === 'postgres'
            ? await server.createDatabase(`bench_${replicas}_${process.pid}`)
            : undefined;
        // The schema first, so the replicas do not race to create it inside the measurement.
        const { createStorage } = await import('../packages/docs-assistant-server/src/storage/index');
        const setup = createStorage(databaseUrl ? { databaseUrl } : { dataDir: dataDir! });
        await setup.open();
        await setup.close();
        const spec: WorkerSpec = {
          ...(dataDir ? { dataDir } : {}),
          ...(databaseUrl ? { databaseUrl } : {}),
          turns: Math.ceil(turns / replicas),
          inFlight: 8,
        };
        let ready = 0;
        const writers: ((text: string) => void)[] = [];
        type Result = { turns: number; elapsedMs: number; latencies: number[] };
        const results = await Promise.all(
          Array.from({ length: replicas }, () =>
            child<Result>(['--worker', JSON.stringify(spec)], (line, write) => {
              if (line !== 'ready') return;
              writers.push(write);
              ready += 1;
              if (ready === replicas) for (const go of writers) go('go\n');
            }),
          ),
        );
        const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
        const total = results.reduce((sum, r) => sum + r.turns, 0);
        const run: ServiceStorageRun = {
          backend,
          replicas,
          turns: total,
          turnsPerSecond: total / (Math.max(...results.map((r) => r.elapsedMs)) / 1000),
          p50Ms: quantile(latencies, 0.5),
          p99Ms: quantile(latencies, 0.99),
        };
        console.log(
          `  ${backend} x${replicas}: ${run.turnsPerSecond.toFixed(0)} turns/s, storage per turn p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms`,
        );
        runs.push(run);
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    server.stop();
  }
  return runs;
}

function readRecorded(): StorageResults | undefined {
  return existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as StorageResults) : undefined;
}

/** Runs both parts and writes `bench/results/storage.json`. */
export async function runStorageBench(options: { quick?: boolean } = {}): Promise<StorageResults> {
  const quick = options.quick ?? false;
  console.log('bench: embedded database candidates (SQLite, PGlite)…');
  const candidates = await measureCandidates(quick, readRecorded()?.candidates);
  console.log('bench: storage work per answer turn (embedded, PostgreSQL; 1 and 2 replicas)…');
  const service = await measureService(quick);
  const results: StorageResults = {
    at: new Date().toISOString(),
    quick,
    choice: CHOICE,
    candidates,
    service,
  };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  return results;
}

const ms = (value: number) => (value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`);

/** The storage section of `bench/results.md`, from `bench/results/storage.json` (empty without it). */
export function storageSection(): string {
  const results = readRecorded();
  if (!results) return '';
  const candidates = results.candidates
    .map(
      (c) =>
        `| ${c.package} ${c.version} | ${ms(c.startupFreshMs)} | ${ms(c.startupExistingMs)} | ${c.writesPerSecond.toFixed(0)} | ${ms(c.p99Ms)} | ${c.installedMB.toFixed(1)} MB | ${c.installSeconds} s (${c.installNote}) |`,
    )
    .join('\n');
  const service = results.service
    .map(
      (r) =>
        `| ${r.backend === 'embedded' ? 'embedded (SQLite file)' : 'PostgreSQL 15 (local, fsync on)'} | ${r.replicas} | ${r.turns.toLocaleString('en-US')} | ${r.turnsPerSecond.toFixed(0)} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} |`,
    )
    .join('\n');
  const choice = results.choice ?? CHOICE;
  return `## Storage (\`bench/storage.ts\`)

Measured on ${results.at}${results.quick ? ' (**--quick**)' : ''}. The embedded candidates, the same
way each: start-up to the first answered query (module load included) on a fresh and on an existing
data folder; answer turns written one after another, each a turn insert and its thread's update in
one durable transaction; size installed in \`node_modules\`; install time measured once by hand.

| candidate | start-up, fresh | start-up, existing | turns/s | p99 | installed | install |
|---|---|---|---|---|---|---|
${candidates}

**Chosen: ${choice.chosen}.** ${choice.why}

The service's storage work per answer turn (two rate-limit counters, the thread read or a new
thread every 5 turns, the turn's transaction), 8 conversations in flight per process, 1 or 2
processes on one database started together; p50/p99 are of that work per turn, which is what
storage adds to an answer.

| storage | replicas | turns | turns/s | p50 | p99 |
|---|---|---|---|---|---|
${service}
`;
}

if (process.argv[2] === '--candidate') {
  await candidateWorker(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
} else if (process.argv[2] === '--worker') {
  await serviceWorker(JSON.parse(process.argv[3]!) as WorkerSpec);
} else if (fileURLToPath(import.meta.url) === process.argv[1]) {
  await runStorageBench({ quick: process.argv.includes('--quick') });
  console.log(storageSection());
}
