import { createStaticExportClient, StaticExportError } from '../../packages/docs-assistant/src/static-export';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { ADMIN_KEY, ASSISTANT_KEY, listen, makeConfig, PRO_ADMIN_KEY } from './helpers';

let server: { url: string; close: () => Promise<void> };
let routes: ReturnType<typeof createStaticExportRoutes>;
beforeAll(async () => {
  routes = createStaticExportRoutes(makeConfig({ acme: [], gone: ['/nonexistent/docs'] }));
  server = await listen(routes.app.fetch);
});
afterAll(async () => {
  await server.close();
  await routes.close();
});

async function caught(promise: Promise<unknown>): Promise<StaticExportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StaticExportError);
    return error as StaticExportError;
  }
  throw new Error('expected a StaticExportError');
}

describe('createStaticExportClient', () => {
  it('refuses an assistant key or a bad base URL up front', () => {
    expect(() => createStaticExportClient({ baseUrl: server.url, adminKey: ASSISTANT_KEY })).toThrow(
      /assistant API key \(svc_dsc_…\); the static export API needs an admin API key/,
    );
    expect(() => createStaticExportClient({ baseUrl: 'api.example.com', adminKey: ADMIN_KEY })).toThrow(
      /baseUrl must be an absolute http\(s\) URL/,
    );
  });

  it('turns error bodies into typed errors with status and code', async () => {
    const pro = createStaticExportClient({ baseUrl: server.url, adminKey: PRO_ADMIN_KEY });
    const plan = await caught(pro.startJob({ domain: 'small-site' }));
    expect(plan).toMatchObject({ status: 403, code: 'forbidden' });
    expect(plan.message).toContain('Enterprise plan');
    const client = createStaticExportClient({ baseUrl: server.url, adminKey: ADMIN_KEY });
    const bad = await caught(client.startJob({ domain: '' }));
    expect(bad).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(bad.issues?.[0]?.path).toBe('domain');
    const missing = await caught(client.getJob('exp_000000000000000000000000'));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });

  it("waitForJob throws job_failed with the job's reason", async () => {
    const client = createStaticExportClient({ baseUrl: server.url, adminKey: ADMIN_KEY });
    const seen: string[] = [];
    const failed = await caught(
      client.exportSite({ domain: 'gone', intervalMs: 2, onProgress: (job) => seen.push(job.status) }),
    );
    expect(failed.code).toBe('job_failed');
    expect(failed.message).toMatch(
      /Static export job exp_\w+ failed: docs folder \/nonexistent\/docs does not exist/,
    );
    expect(seen[0]).toBe('queued');
    expect(seen.at(-1)).toBe('failed');
  });

  it('reports an unreachable service as network_error and rejects malformed answers', async () => {
    const offline = createStaticExportClient({
      baseUrl: 'http://127.0.0.1:9',
      adminKey: ADMIN_KEY,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    expect(await caught(offline.getJob('exp_000000000000000000000000'))).toMatchObject({
      status: 0,
      code: 'network_error',
    });
    const odd = createStaticExportClient({
      baseUrl: server.url,
      adminKey: ADMIN_KEY,
      fetch: async () => Response.json({ jobId: 'x', status: 5 }),
    });
    const wrong = await caught(odd.getJob('x'));
    expect(wrong).toMatchObject({ code: 'invalid_response' });
    expect(wrong.message).toContain('GET /v1/static-export/jobs/x');
  });

  it('stops waiting when its signal aborts', async () => {
    const client = createStaticExportClient({
      baseUrl: server.url,
      adminKey: ADMIN_KEY,
      fetch: async () =>
        Response.json({
          jobId: 'exp_1',
          status: 'running',
          progress: 10,
          pageCount: 1,
          createdAt: 'a',
          updatedAt: 'b',
        }),
    });
    const controller = new AbortController();
    const waiting = client.waitForJob('exp_1', {
      intervalMs: 60_000,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('stop')),
    });
    await expect(waiting).rejects.toThrow('stop');
  });
});
