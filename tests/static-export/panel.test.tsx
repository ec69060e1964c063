// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createStaticExportHandler } from '../../packages/docs-assistant/src/static-export';
import { StaticExportPanel } from '../../packages/docs-assistant/src/static-export/react';
import type { ServiceConfig } from '../../packages/docs-assistant-server/src/config';
import {
  createStaticExportRoutes,
  type StaticExportRoutesOptions,
} from '../../packages/docs-assistant-server/src/static-export/routes';
import { authorizeSession, dashboardRequest } from './dashboard-request';
import { ADMIN_KEY, FIXTURE_DOCS, gate, makeConfig } from './helpers';

const routesToClose: (() => Promise<void>)[] = [];

/** axe violations (ids and targets), colour contrast off: jsdom computes no colours. */
async function axeViolations(element: Element) {
  const results = await axe.run(element, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
afterEach(async () => {
  for (const close of routesToClose.splice(0)) await close();
});

/** The panel's fetch → the host handler → the static export routes, all in-process. */
function backend(
  options: StaticExportRoutesOptions = {},
  domain: string | null = 'acme',
  config?: ServiceConfig,
) {
  const routes = createStaticExportRoutes(
    config ?? makeConfig({ acme: [FIXTURE_DOCS], gone: ['/nonexistent/docs'] }),
    options,
  );
  routesToClose.push(routes.close);
  const handler = createStaticExportHandler({
    baseUrl: 'http://service.test',
    adminKey: ADMIN_KEY,
    domain: domain ?? undefined,
    authorize: authorizeSession,
    // jsdom is a browser for the handler's check; these tests stand in for the host's backend.
    dangerouslyAllowBrowser: true,
    fetch: async (input, init) => {
      const request = new Request(String(input), {
        method: init?.method,
        headers: init?.headers,
        body: init?.body,
      });
      return routes.app.fetch(request);
    },
  });
  const requests: string[] = [];
  const fetch = async (input: string, init?: RequestInit) => {
    requests.push(`${init?.method ?? 'GET'} ${input}`);
    return handler(
      dashboardRequest(new URL(input, 'http://host.test').href, {
        method: init?.method,
        headers: init?.headers,
        body: init?.body,
      }),
    );
  };
  return { fetch, requests };
}

describe('<StaticExportPanel>', () => {
  it('starts an export, shows progress and pages, gets a link, counts down and regenerates after expiry', async () => {
    const user = userEvent.setup();
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const now = () => clock;
    const hold = gate();
    const { fetch, requests } = backend({
      now,
      linkLifetimeMs: 90_000,
      hooks: {
        beforePage: async (_job, index) => {
          if (index === 2) {
            hold.arrive();
            await hold.wait();
          }
        },
      },
    });
    const { container } = render(
      <StaticExportPanel
        endpoint="/api/static-export/"
        domain="acme"
        fetch={fetch}
        pollIntervalMs={5}
        tickMs={5}
        now={now}
      />,
    );
    const root = container.querySelector('[data-docs-assistant="static-export"]')!;
    expect(root).toHaveAttribute('data-status', 'idle');
    expect(screen.getByRole('region', { name: 'Static export' })).toBe(root);

    await user.click(screen.getByRole('button', { name: 'Start export' }));
    await act(() => hold.reached);
    const progress = await screen.findByRole('progressbar', { name: 'Export progress' });
    await waitFor(() => expect(screen.getByText('2 pages exported')).toBeInTheDocument());
    const value = Number(progress.getAttribute('value'));
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(100);
    expect(screen.getByRole('status')).toHaveTextContent('Exporting');
    expect(await axeViolations(container)).toEqual([]);
    expect(root).toHaveAttribute('data-status', 'running');

    hold.open();
    // The rest of the job runs on the shared machine's timers: allow it time, not a deadline.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Export complete'), {
      timeout: 10_000,
    });
    expect(screen.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('value', '100');
    expect(screen.getByText('5 pages exported')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Get bundle link' }));
    const download = await screen.findByRole('link', { name: 'Download bundle (.tar.gz)' });
    expect(download.getAttribute('href')).toMatch(
      /^http:\/\/service\.test\/v1\/static-export\/bundles\/exp_\w+\/bundle\.tar\.gz\?expires=/,
    );
    expect(screen.getByText('Link expires in 1:30')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    clock += 30_000;
    expect(await screen.findByText('Link expires in 1:00')).toBeInTheDocument();
    clock += 60_000;
    expect(await screen.findByText('The link has expired.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download bundle (.tar.gz)' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Generate a new link' }));
    const fresh = await screen.findByRole('link', { name: 'Download bundle (.tar.gz)' });
    expect(fresh.getAttribute('href')).not.toBe(download.getAttribute('href'));
    expect(screen.getByText('Link expires in 1:30')).toBeInTheDocument();
    expect(requests.filter((r) => r.endsWith('/bundle'))).toHaveLength(2);
    expect(requests.every((r) => r.includes('/api/static-export/jobs'))).toBe(true);
  });

  it('shows a failed export with its reason and retries it', async () => {
    const user = userEvent.setup();
    const { fetch, requests } = backend({}, null);
    render(
      <StaticExportPanel endpoint="/api/static-export" domain="gone" fetch={fetch} pollIntervalMs={5} />,
    );
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The export failed: docs folder /nonexistent/docs does not exist');
    expect(screen.getByRole('status')).toHaveTextContent('Export failed');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(await axeViolations(document.body)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.startsWith('POST') && r.endsWith('/jobs'))).toHaveLength(2),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('does not exist');
  });

  it('shows a refused request with the service message and lets the user retry', async () => {
    const user = userEvent.setup();
    const { fetch } = backend({}, 'acme');
    const { container } = render(
      <StaticExportPanel endpoint="/api/static-export" domain="other" fetch={fetch} />,
    );
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Request failed: This endpoint only exports the domain "acme".',
    );
    expect(container.firstElementChild).toHaveAttribute('data-status', 'error');
    expect(within(container).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('watches a job given by id and spreads props on its root', async () => {
    const { fetch } = backend({}, 'acme');
    const start = await fetch('/api/static-export/jobs', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { jobId } = await start.json();
    const seen: string[] = [];
    render(
      <StaticExportPanel
        endpoint="/api/static-export"
        defaultJobId={jobId}
        fetch={fetch}
        pollIntervalMs={5}
        className="mine"
        data-testid="panel"
        onJobChange={(job) => seen.push(job.status)}
      />,
    );
    expect(screen.getByTestId('panel')).toHaveClass('mine');
    // The rest of the job runs on the shared machine's timers: allow it time, not a deadline.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Export complete'), {
      timeout: 10_000,
    });
    expect(seen.at(-1)).toBe('completed');
    expect(screen.getByRole('button', { name: 'Get bundle link' })).toBeInTheDocument();
  });

  it('draws itself with its own stylesheet, scoped to the panel, which `unstyled` leaves out', () => {
    const { fetch } = backend({}, 'acme');
    const styled = render(<StaticExportPanel endpoint="/api/static-export" fetch={fetch} />);
    const sheet = styled.container.querySelector('[data-docs-assistant="static-export"] > style');
    // The card, its buttons and its dark tokens, every rule under the panel's root.
    expect(sheet?.textContent).toContain('border-radius: var(--da-radius, 8px)');
    expect(sheet?.textContent).toContain('--da-surface: var(--da-surface-dark, #0d1117)');
    const rules = sheet!.textContent!.split('}').filter((rule) => rule.includes('{'));
    for (const rule of rules) expect(rule).toContain('[data-docs-assistant="static-export"]');
    styled.unmount();
    const bare = render(<StaticExportPanel endpoint="/api/static-export" fetch={fetch} unstyled />);
    expect(bare.container.querySelector('style')).toBeNull();
    expect(screen.getByRole('region', { name: 'Static export' })).toBeInTheDocument();
  });
});

describe('createStaticExportHandler', () => {
  it('proxies only start, status and bundle, and keeps other domains out', async () => {
    const { fetch } = backend({}, 'acme');
    expect((await fetch('/api/static-export/keys', { method: 'GET' })).status).toBe(404);
    expect((await fetch('/api/static-export/jobs', { method: 'GET' })).status).toBe(405);
    const other = backend({}, null);
    const started = await (
      await other.fetch('/api/static-export/jobs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ domain: 'gone' }),
      })
    ).json();
    expect(started.status).toBe('queued');
    const missing = await other.fetch('/api/static-export/jobs', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: expect.stringContaining('domain'),
      code: 'invalid_request',
    });
  });

  it('reports jobs of other domains as missing when restricted to one domain', async () => {
    const routes = createStaticExportRoutes(
      makeConfig({ acme: [FIXTURE_DOCS], gone: ['/nonexistent/docs'] }),
    );
    routesToClose.push(routes.close);
    const make = (domain?: string) =>
      createStaticExportHandler({
        baseUrl: 'http://service.test',
        adminKey: ADMIN_KEY,
        domain,
        authorize: authorizeSession,
        dangerouslyAllowBrowser: true,
        fetch: (input, init) =>
          Promise.resolve(
            routes.app.fetch(
              new Request(String(input), { method: init?.method, headers: init?.headers, body: init?.body }),
            ),
          ),
      });
    const open = make();
    const acmeOnly = make('acme');
    const started = await (
      await open(
        dashboardRequest('http://host.test/api/jobs', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ domain: 'gone' }),
        }),
      )
    ).json();
    const hidden = await acmeOnly(dashboardRequest(`http://host.test/api/jobs/${started.jobId}`));
    expect(hidden.status).toBe(404);
    const bundle = await acmeOnly(
      dashboardRequest(`http://host.test/api/jobs/${started.jobId}/bundle`, { method: 'POST' }),
    );
    expect(bundle.status).toBe(404);
    expect((await open(dashboardRequest(`http://host.test/api/jobs/${started.jobId}`))).status).toBe(200);
  });
});
