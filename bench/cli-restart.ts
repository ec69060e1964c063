/**
 * The built command as a site owner runs it (issue 37, point 4): `docs-assistant serve --data-dir`
 * over a 1,100-page corpus, started once (it indexes and saves the index), then restarted with no
 * file changed, each time timed from spawning the process to the end of the first answer's stream
 * over HTTP on 127.0.0.1. Beside each restart, in the same run, the floor of any Node service: a
 * process that answers one HTTP request, spawned and asked the same way.
 *
 * Needs the built package: `npm run build -w docs-assistant-server`. Run:
 * `npx tsx bench/cli-restart.ts [--rounds N]`. Bounded: each start is waited for at most 30 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from './service';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'packages/docs-assistant-server/dist/cli.js');
const KEY = 'svc_dsc_clirestartbenchclirestart';
const PAGES = 1_100;
const WAIT_MS = 30_000;
const QUESTION = 'How do I configure the retry policy?';

const body = JSON.stringify({
  fp: 'anonymous',
  retrievalPageSize: 5,
  messages: [{ id: 'm1', role: 'user', content: QUESTION, parts: [{ type: 'text', text: QUESTION }] }],
});

/** Spawns `args`, then asks `url` until it answers 200 (the whole body read); ms from the spawn. */
async function timeToAnswer(args: string[], url: string, init: RequestInit): Promise<number> {
  const start = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { stdio: 'ignore' });
  try {
    while (performance.now() - start < WAIT_MS) {
      try {
        const response = await fetch(url, init);
        await response.text();
        if (response.ok) return performance.now() - start;
      } catch {
        // Not listening yet.
      }
      await new Promise((done) => setTimeout(done, 5));
    }
    throw new Error(`${args.join(' ')} did not answer within ${WAIT_MS} ms`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run npm run build -w docs-assistant-server first`);
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
  const dir = await mkdtemp(join(tmpdir(), 'docs-assistant-cli-restart-'));
  try {
    await mkdir(join(dir, 'docs'));
    await writeCorpus(join(dir, 'docs'), PAGES);
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const serve = [CLI, 'serve', '--docs', join(dir, 'docs'), '--data-dir', join(dir, 'data')];
    const ask = (p: number) =>
      [
        `http://127.0.0.1:${p}/discovery/v1/assistant/docs-assistant/message`,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          body,
        },
      ] as const;
    const first = await timeToAnswer(
      [...serve, '--port', String(port), '--assistant-key', KEY],
      ...ask(port),
    );
    const restarts: number[] = [];
    const floors: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const floorPort = port + 1;
      const floor = `require('node:http').createServer((q, s) => s.end('ok')).listen(${floorPort}, '127.0.0.1')`;
      floors.push(await timeToAnswer(['-e', floor], `http://127.0.0.1:${floorPort}/`, {}));
      restarts.push(
        await timeToAnswer([...serve, '--port', String(port), '--assistant-key', KEY], ...ask(port)),
      );
    }
    const restart = median(restarts);
    const floor = median(floors);
    console.log(
      [
        `docs-assistant serve --data-dir, ${PAGES} pages, from spawning the process to the end of the first answer:`,
        `  first start (indexes, saves the index): ${Math.round(first)} ms`,
        `  restart, no file changed: median ${Math.round(restart)} ms of ${rounds} (${restarts.map(Math.round).join(', ')})`,
        `  a Node process answering one request, the same way: median ${Math.round(floor)} ms; restart / floor ${(restart / floor).toFixed(1)}`,
        `  goal, a restart answering within 1,000 ms: ${restart <= 1_000 ? 'met' : 'missed'}`,
      ].join('\n'),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
