import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '../../packages/docs-assistant-server/src/config';
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import {
  createStaticExportRoutes,
  type StaticExportRoutesOptions,
} from '../../packages/docs-assistant-server/src/static-export/routes';
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  auth,
  copyFixtureDocs,
  gate,
  listen,
  makeConfig,
  OTHER_ADMIN_KEY,
  PRO_ADMIN_KEY,
  tempDir,
} from './helpers';

interface Running {
  url: string;
  routes: ReturnType<typeof createStaticExportRoutes>;
  stop: () => Promise<void>;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  config: ServiceConfig = makeConfig(),
  options: StaticExportRoutesOptions = {},
): Promise<Running> {
  const routes = createStaticExportRoutes(config, options);
  const server = await listen(routes.app.fetch);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    await routes.close();
  };
  cleanups.push(stop);
  return { url: server.url, routes, stop };
}

const post = (url: string, key: string | undefined, body?: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: {
      ...(key ? auth(key) : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

const get = (url: string, key?: string) => fetch(url, { headers: key ? auth(key) : {} });

/** The config with a public site URL for the acme domain: its hostname names it too. */
function withSiteUrl(config: ServiceConfig): ServiceConfig {
  return {
    ...config,
    domains: config.domains.map((d) =>
      d.domain === 'acme'
        ? { ...d, siteUrl: 'https://docs.acme.example' }
        : d.domain === 'other-site'
          ? { ...d, siteUrl: 'https://docs.other.example' }
          : d,
    ),
  };
}

/** The manifest of a completed job's bundle, downloaded over HTTP. */
async function bundleManifest(url: string, jobId: string) {
  const { bundleUrl } = await (await post(`${url}/v1/static-export/jobs/${jobId}/bundle`, ADMIN_KEY)).json();
  const entries = readTarGz(new Uint8Array(await (await fetch(bundleUrl)).arrayBuffer()));
  const manifest = entries.find((entry) => entry.path === 'manifest.json');
  return JSON.parse(new TextDecoder().decode(manifest!.data));
}

async function waitFor(url: string, jobId: string, until: (job: { status: string }) => boolean) {
  for (let i = 0; i < 500; i++) {
    const job = await (await get(`${url}/v1/static-export/jobs/${jobId}`, ADMIN_KEY)).json();
    if (until(job)) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${jobId} never reached the awaited state`);
}

describe('static export routes: auth and validation', () => {
  it('answers 401 without a key or with an unknown one', async () => {
    const { url } = await start();
    const missing = await post(`${url}/v1/static-export/jobs`, undefined, { domain: 'acme' });
    expect(missing.status).toBe(401);
    expect((await missing.json()).code).toBe('unauthorized');
    const unknown = await post(`${url}/v1/static-export/jobs`, 'svc_not_a_known_key', { domain: 'acme' });
    expect(unknown.status).toBe(401);
  });

  it('answers 403 for an assistant key, saying an admin key is needed', async () => {
    const { url } = await start();
    const res = await post(`${url}/v1/static-export/jobs`, ASSISTANT_KEY, { domain: 'acme' });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.code).toBe('forbidden');
    expect(body.error).toMatch(/needs an admin API key/);
  });

  it('answers 403 for an organization that is not on the Enterprise plan', async () => {
    const { url } = await start();
    const res = await post(`${url}/v1/static-export/jobs`, PRO_ADMIN_KEY, { domain: 'small-site' });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/Static export needs the Enterprise plan.*pro plan/);
  });

  it('answers 403 naming its own domains for an unknown domain or one of another organization (never 404)', async () => {
    const { url } = await start(withSiteUrl(makeConfig()));
    const bodies = [];
    for (const domain of ['nope', 'other-site', 'docs.other.example']) {
      const res = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain });
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body.code).toBe('forbidden');
      expect(body.error).toContain(`Organization "acme" has no domain "${domain}" to export`);
      // The domains that exist for this key, by name and hostname; never another organization's.
      expect(body.error).toContain('Its domains: "acme" (docs.acme.example)');
      expect(body.error.split('Its domains:')[1]).not.toMatch(/other/);
      bodies.push(body.error.replace(domain, ''));
    }
    // Another organization's domain reads exactly like an unknown one.
    expect(new Set(bodies).size).toBe(1);
  });

  it('takes the docs hostname as domain, and a path without its leading slash (the real example body)', async () => {
    const { url } = await start(withSiteUrl(makeConfig()));
    const res = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, {
      domain: 'docs.acme.example',
      paths: ['guides/setup'],
    });
    expect(res.status).toBe(202);
    const started = await res.json();
    expect(started.domain).toBe('acme');
    const done = await waitFor(url, started.jobId, (j) => j.status === 'completed' || j.status === 'failed');
    expect(done).toMatchObject({ status: 'completed', pageCount: 2 });
    // The home page (generated, as it was not asked for) and the one page asked for.
    const manifest = await bundleManifest(url, started.jobId);
    expect(manifest.pages.map((p: { path: string }) => p.path)).toEqual(['/', '/guides/setup']);
  });

  it('reads "index" as the home page alone, and "/guides" and "guides/" alike', async () => {
    const { url } = await start();
    const paths = async (requested: string[]) => {
      const started = await (
        await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme', paths: requested })
      ).json();
      await waitFor(url, started.jobId, (j) => j.status === 'completed');
      return (await bundleManifest(url, started.jobId)).pages.map((p: { path: string }) => p.path);
    };
    expect(await paths(['index'])).toEqual(['/']);
    expect(await paths(['guides/'])).toEqual(await paths(['/guides']));
    // The home page is generated when it is not among the pages asked for; sidebar order (front matter).
    expect(await paths(['guides/'])).toEqual(['/', '/guides', '/guides/setup', '/guides/deploy']);
  });

  it('answers 400 naming the hostname for a domain given as a URL', async () => {
    const { url } = await start(withSiteUrl(makeConfig()));
    for (const domain of ['https://docs.acme.example/', 'docs.acme.example/guides']) {
      const res = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('invalid_request');
      expect(body.error).toContain('without protocol or path (here "docs.acme.example")');
    }
  });

  it('answers 400 saying what to change for a bad body', async () => {
    const { url } = await start();
    const res = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 3, paths: ['has space'] });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_request');
    expect(body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['domain', 'paths.0']);
    expect(body.error).toContain('Send { "domain": string');
    const notJson = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, '{oops');
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).code).toBe('invalid_json');
  });

  it("answers 404 for an unknown job and for another organization's job", async () => {
    const { url } = await start();
    const started = await (await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })).json();
    expect((await get(`${url}/v1/static-export/jobs/exp_000000000000000000000000`, ADMIN_KEY)).status).toBe(
      404,
    );
    expect((await get(`${url}/v1/static-export/jobs/../../etc`, ADMIN_KEY)).status).toBe(404);
    const foreign = await get(`${url}/v1/static-export/jobs/${started.jobId}`, OTHER_ADMIN_KEY);
    expect(foreign.status).toBe(404);
    expect((await post(`${url}/v1/static-export/jobs/${started.jobId}/bundle`, OTHER_ADMIN_KEY)).status).toBe(
      404,
    );
  });
});

describe('static export routes: jobs', () => {
  it('queues with 202, shows progress while running, answers 409 until completed', async () => {
    const hold = gate();
    const { url } = await start(makeConfig(), {
      hooks: {
        beforePage: async (_job, index) => {
          if (index === 2) {
            hold.arrive();
            await hold.wait();
          }
        },
      },
    });
    const res = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' });
    expect(res.status).toBe(202);
    const started = await res.json();
    expect(started).toMatchObject({ status: 'queued', progress: 0, pageCount: 0, domain: 'acme' });
    expect(started.jobId).toMatch(/^exp_[0-9a-f]{24}$/);
    expect(res.headers.get('location')).toBe(`/v1/static-export/jobs/${started.jobId}`);

    await hold.reached;
    const running = await (await get(`${url}/v1/static-export/jobs/${started.jobId}`, ADMIN_KEY)).json();
    expect(running.status).toBe('running');
    expect(running.pageCount).toBe(2);
    expect(running.progress).toBeGreaterThan(0);
    expect(running.progress).toBeLessThan(100);

    const early = await post(`${url}/v1/static-export/jobs/${started.jobId}/bundle`, ADMIN_KEY);
    expect(early.status).toBe(409);
    const conflict = await early.json();
    expect(conflict.code).toBe('conflict');
    expect(conflict.error).toMatch(/The job is running, not completed: poll GET/);

    hold.open();
    const done = await waitFor(url, started.jobId, (j) => j.status === 'completed');
    expect(done).toMatchObject({ status: 'completed', progress: 100, pageCount: 5 });
    expect(done.error).toBeUndefined();
  });

  it('runs at most `concurrency` jobs at a time; the rest stay queued', async () => {
    const hold = gate();
    const { url } = await start(makeConfig(), {
      concurrency: 1,
      hooks: {
        beforePage: async () => {
          hold.arrive();
          await hold.wait();
        },
      },
    });
    const a = await (await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })).json();
    const b = await (await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })).json();
    await hold.reached;
    expect((await (await get(`${url}/v1/static-export/jobs/${a.jobId}`, ADMIN_KEY)).json()).status).toBe(
      'running',
    );
    expect((await (await get(`${url}/v1/static-export/jobs/${b.jobId}`, ADMIN_KEY)).json()).status).toBe(
      'queued',
    );
    hold.open();
    await waitFor(url, b.jobId, (j) => j.status === 'completed');
  });

  it('fails a job whose docs folder vanished, with the reason, and refuses its bundle', async () => {
    const docs = copyFixtureDocs();
    cleanups.push(docs.remove);
    const { url } = await start(makeConfig({ acme: [docs.path] }));
    rmSync(docs.path, { recursive: true, force: true });
    const started = await (await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })).json();
    const failed = await waitFor(url, started.jobId, (j) => j.status !== 'queued' && j.status !== 'running');
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(`docs folder ${docs.path} does not exist`);
    const bundle = await post(`${url}/v1/static-export/jobs/${started.jobId}/bundle`, ADMIN_KEY);
    expect(bundle.status).toBe(409);
    expect((await bundle.json()).error).toContain('it failed (docs folder');
  });

  it('exports a page with broken front matter without it, warning with the file and line', async () => {
    const docs = copyFixtureDocs();
    cleanups.push(docs.remove);
    writeFileSync(join(docs.path, 'broken.md'), '---\ntitle: [oops\n---\n# Broken\n');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { url } = await start(makeConfig({ acme: [docs.path] }));
      const started = await (
        await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })
      ).json();
      const done = await waitFor(url, started.jobId, (j) => j.status !== 'queued' && j.status !== 'running');
      expect(done.status).toBe('completed');
      const warnings = warn.mock.calls.map((call) => String(call[0]));
      expect(warnings).toContainEqual(
        expect.stringContaining(`${join(docs.path, 'broken.md')}:2: front matter is not valid YAML`),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('fails a job whose paths match no page', async () => {
    const { url } = await start();
    const started = await (
      await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme', paths: ['/missing'] })
    ).json();
    const failed = await waitFor(url, started.jobId, (j) => j.status === 'failed');
    expect(failed.error).toContain('no page of "acme" matches paths /missing');
  });
});

describe('static export routes: presigned bundle links', () => {
  async function completedJob(options: StaticExportRoutesOptions = {}) {
    const running = await start(makeConfig(), options);
    const started = await (
      await post(`${running.url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })
    ).json();
    await waitFor(running.url, started.jobId, (j) => j.status === 'completed');
    return { ...running, jobId: started.jobId as string };
  }

  it('downloads with the link alone, until it expires; then a fresh link works for the same job', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const { url, jobId } = await completedJob({ now: () => now, linkLifetimeMs: 60_000 });
    const first = await (await post(`${url}/v1/static-export/jobs/${jobId}/bundle`, ADMIN_KEY)).json();
    expect(first.jobId).toBe(jobId);
    expect(first.expiresAt).toBe('2030-01-01T00:01:00.000Z');
    expect(first.bundleUrl).toMatch(
      new RegExp(
        `^${url}/v1/static-export/bundles/${jobId}/bundle\\.tar\\.gz\\?expires=\\d+&signature=[0-9a-f]{64}$`,
      ),
    );
    // The link's last segment names the file, as the real service's does.
    expect(new URL(first.bundleUrl).pathname.split('/').at(-1)).toBe('bundle.tar.gz');
    const download = await fetch(first.bundleUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="bundle.tar.gz"');
    // A link in the form of earlier versions (`{jobId}.tar.gz`, same signature) still downloads.
    const older = new URL(first.bundleUrl);
    older.pathname = `/v1/static-export/bundles/${jobId}.tar.gz`;
    expect((await fetch(older)).status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(first.sizeBytes);

    now += 60_000;
    const expired = await fetch(first.bundleUrl);
    expect(expired.status).toBe(403);
    const expiredBody = await expired.json();
    expect(expiredBody.error).toContain('This bundle link expired at 2030-01-01T00:01:00.000Z');
    expect(expiredBody.error).toContain(`POST /v1/static-export/jobs/${jobId}/bundle`);

    const fresh = await (await post(`${url}/v1/static-export/jobs/${jobId}/bundle`, ADMIN_KEY)).json();
    expect(fresh.bundleUrl).not.toBe(first.bundleUrl);
    expect(fresh.expiresAt).toBe('2030-01-01T00:02:00.000Z');
    const again = await fetch(fresh.bundleUrl);
    expect(again.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await again.arrayBuffer()), Buffer.from(bytes))).toBe(0);
  });

  it('signs links for the public base URL when one is configured', async () => {
    const { url, jobId } = await completedJob({ publicBaseUrl: 'https://exports.example.com/api/' });
    const { bundleUrl } = await (
      await post(`${url}/v1/static-export/jobs/${jobId}/bundle`, ADMIN_KEY)
    ).json();
    expect(
      bundleUrl.startsWith(
        `https://exports.example.com/api/v1/static-export/bundles/${jobId}/bundle.tar.gz?`,
      ),
    ).toBe(true);
    // The path and query are what the service checks, whatever host fronts it.
    const res = await fetch(bundleUrl.replace('https://exports.example.com/api', url));
    expect(res.status).toBe(200);
  });

  it('refuses tampered links with 403', async () => {
    const { url, jobId } = await completedJob();
    const { bundleUrl } = await (
      await post(`${url}/v1/static-export/jobs/${jobId}/bundle`, ADMIN_KEY)
    ).json();
    const link = new URL(bundleUrl);
    const later = new URL(link);
    later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3_600_000));
    const flipped = new URL(link);
    const sig = link.searchParams.get('signature')!;
    flipped.searchParams.set('signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
    const unsigned = new URL(link);
    unsigned.searchParams.delete('signature');
    for (const tampered of [later, flipped, unsigned]) {
      const res = await fetch(tampered);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toContain('This bundle link is not valid');
    }
  });

  it('gives two exports of the same docs the same bytes', async () => {
    const { url, jobId } = await completedJob();
    const second = await (await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })).json();
    await waitFor(url, second.jobId, (j) => j.status === 'completed');
    const bytes = async (id: string) => {
      const { bundleUrl } = await (await post(`${url}/v1/static-export/jobs/${id}/bundle`, ADMIN_KEY)).json();
      return Buffer.from(await (await fetch(bundleUrl)).arrayBuffer());
    };
    expect(Buffer.compare(await bytes(jobId), await bytes(second.jobId))).toBe(0);
  });
});

/** A job as stored in the embedded database of `dataDir`. */
async function storedJob(dataDir: string, jobId: string) {
  const storage = createStorage({ dataDir });
  try {
    return await storage.getJob(jobId);
  } finally {
    await storage.close();
  }
}

describe('static export routes: restarts', () => {
  it('persists jobs atomically and resumes a job that was running when the service stopped', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const hold = gate();
    const first = await start(makeConfig(), {
      dataDir: data.path,
      hooks: {
        beforePage: async (_job, index) => {
          if (index === 1) {
            hold.arrive();
            await hold.wait();
          }
        },
      },
    });
    const started = await (
      await post(`${first.url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })
    ).json();
    await hold.reached;
    await first.stop(); // the job is held mid-way: it stops as `running`
    // The job's row, as the stopped service left it in the embedded database.
    const record = await storedJob(data.path, started.jobId);
    expect(record?.status).toBe('running');

    const second = await start(makeConfig(), { dataDir: data.path });
    const done = await waitFor(
      second.url,
      started.jobId,
      (j) => j.status === 'completed' || j.status === 'failed',
    );
    expect(done).toMatchObject({ status: 'completed', progress: 100, pageCount: 5 });
    expect(existsSync(join(data.path, 'static-export', 'bundles', `${started.jobId}.tar.gz`))).toBe(true);
    // A link signed before a restart stays valid: the signing secret is kept in the data folder.
    const bundle = await (
      await post(`${second.url}/v1/static-export/jobs/${started.jobId}/bundle`, ADMIN_KEY)
    ).json();
    await second.stop();
    const third = await start(makeConfig(), { dataDir: data.path });
    const res = await fetch(bundle.bundleUrl.replace(second.url, third.url));
    expect(res.status).toBe(200);
  });

  it('resumes a job that was still queued when the service stopped', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const hold = gate();
    const first = await start(makeConfig(), {
      dataDir: data.path,
      concurrency: 1,
      hooks: {
        beforePage: async () => {
          hold.arrive();
          await hold.wait();
        },
      },
    });
    await post(`${first.url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' });
    const queued = await (
      await post(`${first.url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })
    ).json();
    await hold.reached;
    await first.stop();
    expect((await storedJob(data.path, queued.jobId))?.status).toBe('queued');
    const second = await start(makeConfig(), { dataDir: data.path });
    const done = await waitFor(
      second.url,
      queued.jobId,
      (j) => j.status === 'completed' || j.status === 'failed',
    );
    expect(done.status).toBe('completed');
  });

  it('answers 500 naming the data folder when it cannot be used, without crashing', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const file = join(data.path, 'not-a-folder');
    writeFileSync(file, 'x');
    const { url } = await start(makeConfig(), { dataDir: file });
    const res = await post(`${url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' });
    expect(res.status).toBe(500);
    expect((await res.json()).error).toContain(`Static export storage in ${file} is unavailable`);
  });

  it('marks a job failed, with the reason, once restarts have interrupted it too often', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const hold = gate();
    const first = await start(makeConfig(), {
      dataDir: data.path,
      maxAttempts: 1,
      hooks: {
        beforePage: async () => {
          hold.arrive();
          await hold.wait();
        },
      },
    });
    const started = await (
      await post(`${first.url}/v1/static-export/jobs`, ADMIN_KEY, { domain: 'acme' })
    ).json();
    await hold.reached;
    await first.stop();
    const second = await start(makeConfig(), { dataDir: data.path, maxAttempts: 1 });
    const job = await (await get(`${second.url}/v1/static-export/jobs/${started.jobId}`, ADMIN_KEY)).json();
    expect(job.status).toBe('failed');
    expect(job.error).toBe('the service stopped while this job was running, 1 times; start a new export job');
  });
});
