/**
 * The admin client, the CLI and the host handler against a service that sends only what the spec
 * guarantees (spec §4.2–4.4, §3 "other status values: not shown"), over real HTTP on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createStaticExportClient,
  createStaticExportHandler,
  StaticExportError,
} from '../../packages/docs-assistant/src/static-export';
import { type CliIO, exportCommand } from '../../packages/docs-assistant-server/src/static-export/cli';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { authorizeSession, dashboardRequest } from './dashboard-request';
import { ADMIN_KEY, FIXTURE_DOCS, listen, makeConfig, tempDir } from './helpers';
import { SPEC_ONLY_ADMIN_KEY, type SpecOnlyService, startSpecOnlyService } from './spec-only-service';

let service: SpecOnlyService;
beforeAll(async () => {
  service = await startSpecOnlyService();
});
afterAll(() => service.close());

const client = () => createStaticExportClient({ baseUrl: service.url, adminKey: SPEC_ONLY_ADMIN_KEY });

describe('the admin client with a spec-only service', () => {
  it('startJob accepts { jobId }, getJob { status }, generateBundle { bundleUrl, expiresAt }', async () => {
    const admin = client();
    const started = await admin.startJob({ domain: 'acme' });
    expect(started).toEqual({ jobId: expect.stringMatching(/^job-\d+$/) });
    expect(await admin.getJob(started.jobId)).toEqual({ status: 'queued', jobId: started.jobId });
    expect(await admin.getJob(started.jobId)).toEqual({
      status: 'running',
      progress: 40,
      pageCount: 6,
      jobId: started.jobId,
    });
    const bundle = await admin.generateBundle(started.jobId);
    expect(bundle).toEqual({ bundleUrl: expect.stringContaining('/files/'), expiresAt: expect.any(String) });
  });

  it('exportSite polls through a status the spec does not name until completed', async () => {
    const seen: string[] = [];
    const result = await client().exportSite({
      domain: 'acme',
      intervalMs: 1,
      onProgress: (job) => seen.push(job.status),
    });
    expect(seen).toEqual(['queued', 'running', 'packaging', 'completed']);
    expect(result.job).toEqual({ status: 'completed', jobId: result.jobId });
    expect(result.bundle.bundleUrl).toContain(`/files/${result.jobId}.tar.gz`);
    expect((await client().downloadBundle(result.bundle.bundleUrl)).byteLength).toBeGreaterThan(0);
  });

  it('an unknown status is waited through until the timeout the caller gives', async () => {
    const admin = client();
    const { jobId } = await admin.startJob({ domain: 'acme' });
    service.pin(jobId, { status: 'stuck-somewhere', progress: '12%' });
    let error: unknown;
    try {
      await admin.waitForJob(jobId, { intervalMs: 1, timeoutMs: 20 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StaticExportError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect((error as Error).message).toContain('"stuck-somewhere" (12%)');
  });

  it('still rejects an answer without the fields the spec guarantees', async () => {
    const odd = createStaticExportClient({
      baseUrl: service.url,
      adminKey: SPEC_ONLY_ADMIN_KEY,
      fetch: async () => Response.json({ progress: 10 }),
    });
    await expect(odd.getJob('job-1')).rejects.toMatchObject({
      code: 'invalid_response',
      message: expect.stringContaining('status: required'),
    });
    await expect(odd.startJob({ domain: 'acme' })).rejects.toMatchObject({
      code: 'invalid_response',
      message: expect.stringContaining('jobId: required'),
    });
    await expect(odd.generateBundle('job-1')).rejects.toMatchObject({
      code: 'invalid_response',
      message: expect.stringContaining('bundleUrl: required'),
    });
  });
});

describe('docs-assistant export with a spec-only service', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('da-spec-only-cli-');
  });
  afterEach(() => dir.remove());

  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    const value: CliIO = {
      stdout: { write: (chunk: string) => out.push(chunk) },
      stderr: { write: (chunk: string) => err.push(chunk) },
      env: { DOCS_ASSISTANT_ADMIN_KEY: SPEC_ONLY_ADMIN_KEY },
      cwd: dir.path,
      pollIntervalMs: 1,
      onInterrupt: () => () => {},
    };
    return { value, out, err };
  };

  it('shows an unknown status as it is and saves the bundle', async () => {
    const { value, out, err } = io();
    const code = await exportCommand(
      ['--domain', 'acme', '--base-url', service.url, '--out', 'site.tar.gz'],
      value,
    );
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    const text = out.join('');
    expect(text).toMatch(/\(queued\)/);
    expect(text).toMatch(/\] {2}40% 6 pages \(running\)/);
    expect(text).toMatch(/95% 10 pages \(packaging\)/);
    expect(text).toContain('Downloading the bundle…');
    expect(existsSync(join(dir.path, 'site.tar.gz'))).toBe(true);
  });

  it('--timeout gives up on a job that never finishes', async () => {
    const { value, err } = io();
    // Every status answer of the next job the service starts.
    const next = Number((await client().startJob({ domain: 'acme' })).jobId.slice(4)) + 1;
    service.pin(`job-${next}`, { status: 'waiting-for-godot' });
    const code = await exportCommand(
      ['--domain', 'acme', '--base-url', service.url, '--timeout', '0.02'],
      value,
    );
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/was still "waiting-for-godot" after 20 ms/);
  });
});

describe('createStaticExportHandler restricted to a domain', () => {
  it('reads and bundles the jobs it started, though a spec answer carries no domain', async () => {
    const handler = createStaticExportHandler({
      baseUrl: service.url,
      adminKey: SPEC_ONLY_ADMIN_KEY,
      domain: 'acme',
      authorize: authorizeSession,
    });
    const host = await listen(handler);
    try {
      const start = await fetch(
        dashboardRequest(`${host.url}/api/static-export/jobs`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        }),
      );
      expect(start.status).toBe(200);
      const { jobId } = (await start.json()) as { jobId: string };
      expect(
        await (await fetch(dashboardRequest(`${host.url}/api/static-export/jobs/${jobId}`))).json(),
      ).toEqual({
        status: 'queued',
      });
      const running = await fetch(dashboardRequest(`${host.url}/api/static-export/jobs/${jobId}`));
      expect(running.status).toBe(200);
      expect(await running.json()).toEqual({ status: 'running', progress: 40, pageCount: 6 });
      const bundle = await fetch(
        dashboardRequest(`${host.url}/api/static-export/jobs/${jobId}/bundle`, { method: 'POST' }),
      );
      expect(bundle.status).toBe(200);
      expect(await bundle.json()).toMatchObject({
        bundleUrl: expect.any(String),
        expiresAt: expect.any(String),
      });

      // A job this handler did not start stays hidden, and is not even asked about for a bundle.
      const { jobId: foreign } = await client().startJob({ domain: 'other' });
      expect((await fetch(dashboardRequest(`${host.url}/api/static-export/jobs/${foreign}`))).status).toBe(
        404,
      );
      const before = service.requests.length;
      const hidden = await fetch(
        dashboardRequest(`${host.url}/api/static-export/jobs/${foreign}/bundle`, { method: 'POST' }),
      );
      expect(hidden.status).toBe(404);
      expect(service.requests.slice(before).some((r) => r.endsWith('/bundle'))).toBe(false);
    } finally {
      await host.close();
    }
  });
});

describe('createStaticExportHandler with the reference service', () => {
  let routes: ReturnType<typeof createStaticExportRoutes>;
  let reference: { url: string; close: () => Promise<void> };
  let host: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    routes = createStaticExportRoutes(makeConfig({ acme: [FIXTURE_DOCS] }));
    reference = await listen(routes.app.fetch);
    host = await listen(
      createStaticExportHandler({
        baseUrl: reference.url,
        adminKey: ADMIN_KEY,
        domain: 'acme',
        authorize: authorizeSession,
      }),
    );
  });
  afterAll(async () => {
    await host.close();
    await reference.close();
    await routes.close();
  });

  it('answers a job id that is not valid percent-encoding with 400, not a crash', async () => {
    for (const path of ['/api/jobs/%E0%A4%A', '/api/jobs/%E0%A4%A/bundle']) {
      const response = await fetch(
        dashboardRequest(`${host.url}${path}`, { method: path.endsWith('bundle') ? 'POST' : 'GET' }),
      );
      expect(response.status).toBe(400);
      // The handler's own errors have the real service's shape: `error` is the message.
      const json = (await response.json()) as { error: string; code: string };
      expect(json.code).toBe('invalid_request');
      expect(json.error).toMatch(/not valid percent-encoding/);
    }
  });

  it('a job of its domain started elsewhere (e.g. before a restart) is found by the domain in its status', async () => {
    const started = await fetch(`${reference.url}/v1/static-export/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'acme' }),
    });
    const { jobId } = (await started.json()) as { jobId: string };
    const response = await fetch(dashboardRequest(`${host.url}/api/jobs/${jobId}`));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ jobId, domain: 'acme' });
  });

  it('a wrong method is 405 with Allow', async () => {
    const response = await fetch(`${host.url}/api/jobs/x/bundle`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
