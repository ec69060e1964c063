/**
 * Operations of the storage: `serve --help` shows both modes and the retention flags, `serve`
 * names its storage, the Helm values `export` writes carry the database URL for replicas, the
 * health check names the storage, and a retention sweep removes what is too old.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { serveCommand } from '../../packages/docs-assistant-server/src/cli/serve';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { type CliIO, exportCommand } from '../../packages/docs-assistant-server/src/static-export/cli';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  ask,
  DOMAIN,
  FIXTURE_DOCS,
  type RunningService,
  startService,
} from './helpers';

let dir: string;
let running: RunningService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'da-storage-cli-'));
  running = await startService({ dataDir: join(dir, 'data') });
});
afterAll(async () => {
  await running.close();
  await rm(dir, { recursive: true, force: true });
});

function exportIo(env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: {
      isTTY: false,
      write: (chunk: string) => {
        stdout += chunk;
        return true;
      },
    },
    stderr: {
      isTTY: false,
      write: (chunk: string) => {
        stderr += chunk;
        return true;
      },
    },
    env: { DOCS_ASSISTANT_ADMIN_KEY: ADMIN_KEY, ...env },
    cwd: dir,
    pollIntervalMs: 2,
    onInterrupt: () => () => {},
  };
  return { io, out: () => stdout, err: () => stderr };
}

describe('docs-assistant serve --help', () => {
  it('shows the embedded and the PostgreSQL mode, and the retention flags', async () => {
    const lines: string[] = [];
    expect(await serveCommand.run(['--help'], { out: (line) => lines.push(line), err: () => {} })).toBe(0);
    const help = lines.join('\n');
    expect(help).toMatch(/--data-dir <dir>\s+Embedded database \(SQLite\)/);
    expect(help).toMatch(/--database-url <u>\s+PostgreSQL/);
    expect(help).toContain('DATABASE_URL');
    for (const flag of ['--retention-days', '--max-thread-bytes', '--max-stored-bytes'])
      expect(help).toContain(flag);
  });

  it('refuses a retention flag that is not a whole number', async () => {
    await expect(
      serveCommand.run(['--retention-days', 'soon'], { out: () => {}, err: () => {} }),
    ).rejects.toThrow(/--retention-days must be a whole number of at least 1 \(got "soon"\)/);
  });
});

describe('docs-assistant export --helm-values', () => {
  it('writes the database URL and the replicas for a service shared by replicas', async () => {
    const t = exportIo();
    const code = await exportCommand(
      [
        '--domain',
        DOMAIN,
        '--base-url',
        running.url,
        '--helm-values',
        'values.yaml',
        '--database-url',
        'postgres://docs:secret@db.internal:5432/docs',
      ],
      t.io,
    );
    expect(t.err()).toBe('');
    expect(code).toBe(0);
    const values = parseYaml(await readFile(join(dir, 'values.yaml'), 'utf8'));
    expect(values.assistant).toEqual({
      replicas: 2,
      databaseUrl: 'postgres://docs:secret@db.internal:5432/docs',
    });
    expect(values.staticExport.enabled).toBe(true);
  });

  it('takes DATABASE_URL, and leaves the assistant out without a database', async () => {
    const fromEnv = exportIo({ DATABASE_URL: 'postgres://docs@db:5432/docs' });
    const args = [
      '--domain',
      DOMAIN,
      '--base-url',
      running.url,
      '--helm-values',
      'env.yaml',
      '--replicas',
      '3',
    ];
    expect(await exportCommand(args, fromEnv.io)).toBe(0);
    expect(parseYaml(await readFile(join(dir, 'env.yaml'), 'utf8')).assistant).toEqual({
      replicas: 3,
      databaseUrl: 'postgres://docs@db:5432/docs',
    });
    const plain = exportIo();
    expect(
      await exportCommand(
        ['--domain', DOMAIN, '--base-url', running.url, '--helm-values', 'plain.yaml'],
        plain.io,
      ),
    ).toBe(0);
    expect(parseYaml(await readFile(join(dir, 'plain.yaml'), 'utf8'))).not.toHaveProperty('assistant');
    const lonely = exportIo();
    expect(await exportCommand(['--domain', DOMAIN, '--replicas', '2'], lonely.io)).toBe(2);
    expect(lonely.err()).toMatch(/--replicas above 1 needs --database-url/);
    const wrong = exportIo();
    expect(await exportCommand(['--domain', DOMAIN, '--database-url', 'mysql://x'], wrong.io)).toBe(2);
    expect(wrong.err()).toMatch(/must be a PostgreSQL URL/);
  });
});

describe('health and retention', () => {
  it('/health names the storage mode and says it is reachable', async () => {
    const response = await fetch(`${running.url}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({
      ok: true,
      domains: [DOMAIN],
      storage: { mode: 'embedded', reachable: true },
    });
  });

  it('a sweep with a retention of days removes threads idle longer, and keeps the others', async () => {
    const service = createAssistantService({
      docs: FIXTURE_DOCS,
      domain: DOMAIN,
      assistantKey: ASSISTANT_KEY,
      retention: { days: 1 },
      warn: () => {},
    });
    const turn = await ask(service, 'How do I enable dark mode?');
    await service.sweep();
    const owner = { domain: DOMAIN, fp: 'anonymous', key: turn.finish!.threadKey! };
    expect((await service.threads.find(turn.finish!.threadId!, owner)).ok).toBe(true);
    // A sweep two days from now: the retention's cutoff is then one day from now, past the thread's last use.
    const day = 24 * 60 * 60 * 1000;
    expect((await service.threads.sweep(Date.now() + 2 * day - day)).threadsRemoved).toBe(1);
    expect((await service.threads.find(turn.finish!.threadId!, owner)).ok).toBe(false);
    await service.close();
  });
});

describe('a data folder of an earlier version', () => {
  it('has its export jobs (JSON files) moved into the database, completed ones with their bundles', async () => {
    const dataDir = join(dir, 'old-data');
    const jobs = join(dataDir, 'static-export', 'jobs');
    const bundles = join(dataDir, 'static-export', 'bundles');
    await mkdir(jobs, { recursive: true });
    await mkdir(bundles, { recursive: true });
    const at = '2026-01-01T00:00:00.000Z';
    const done = `exp_${'a'.repeat(24)}`;
    const waiting = `exp_${'b'.repeat(24)}`;
    const record = { organization: DOMAIN, domain: DOMAIN, createdAt: at, updatedAt: at, attempts: 1 };
    await writeFile(
      join(jobs, `${done}.json`),
      JSON.stringify({
        ...record,
        jobId: done,
        status: 'completed',
        progress: 100,
        pageCount: 5,
        sizeBytes: 5,
      }),
    );
    await writeFile(join(bundles, `${done}.tar.gz`), 'bytes');
    await writeFile(
      join(jobs, `${waiting}.json`),
      JSON.stringify({ ...record, jobId: waiting, status: 'queued', progress: 0, pageCount: 0, attempts: 0 }),
    );
    const old = await startService({ dataDir, adminKey: ADMIN_KEY });
    try {
      const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
      const status = await (
        await fetch(`${old.url}/v1/static-export/jobs/${done}`, { headers: admin })
      ).json();
      expect(status).toMatchObject({ status: 'completed', progress: 100, pageCount: 5 });
      const link = await (
        await fetch(`${old.url}/v1/static-export/jobs/${done}/bundle`, { method: 'POST', headers: admin })
      ).json();
      expect(await (await fetch(link.bundleUrl)).text()).toBe('bytes');
      // The queued one is run by the service (it polls for work), and completes.
      let state = '';
      while (state !== 'completed' && state !== 'failed') {
        state = (
          await (await fetch(`${old.url}/v1/static-export/jobs/${waiting}`, { headers: admin })).json()
        ).status;
      }
      expect(state).toBe('completed');
      expect(await readdir(join(dataDir, 'static-export'))).toContain('jobs.migrated');
    } finally {
      await old.close();
    }
  }, 60_000);
});
