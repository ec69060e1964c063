// @vitest-environment jsdom
/**
 * The panel through the host handler against a service that answers only the spec's fields, over
 * real HTTP on 127.0.0.1: a status the spec does not name is shown as it is and polled through.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStaticExportHandler } from '../../packages/docs-assistant/src/static-export';
import { StaticExportPanel } from '../../packages/docs-assistant/src/static-export/react';
import { authorizeSession, dashboardRequest } from './dashboard-request';
import { SPEC_ONLY_ADMIN_KEY, type SpecOnlyService, startSpecOnlyService } from './spec-only-service';

let service: SpecOnlyService;
beforeAll(async () => {
  service = await startSpecOnlyService();
});
afterAll(() => service.close());

function hostFetch() {
  const handler = createStaticExportHandler({
    baseUrl: service.url,
    adminKey: SPEC_ONLY_ADMIN_KEY,
    domain: 'acme',
    authorize: authorizeSession,
    // jsdom is a browser for the handler's check; this test stands in for the host's backend.
    dangerouslyAllowBrowser: true,
  });
  return (input: string, init?: RequestInit) =>
    handler(dashboardRequest(new URL(input, 'http://host.test').href, init));
}

describe('<StaticExportPanel> with a spec-only service', () => {
  it('shows an unknown status as it is, keeps polling until completed, and gets the link', async () => {
    const user = userEvent.setup();
    const statuses: string[] = [];
    render(
      <StaticExportPanel
        endpoint="/api/static-export"
        fetch={hostFetch()}
        pollIntervalMs={1}
        onJobChange={(job) => statuses.push(job.status)}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Export complete'));
    expect(statuses).toEqual(['queued', 'running', 'packaging', 'completed']);
    await user.click(screen.getByRole('button', { name: 'Get bundle link' }));
    const link = await screen.findByRole('link', { name: 'Download bundle (.tar.gz)' });
    expect(link.getAttribute('href')).toMatch(/\/files\/job-\d+\.tar\.gz$/);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the unknown status is on screen while it lasts, with the progress it came with', async () => {
    const user = userEvent.setup();
    const fetch = hostFetch();
    let pinned = false;
    const pinning = async (input: string, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (!pinned && input.endsWith('/jobs') && response.ok) {
        pinned = true;
        const { jobId } = (await response.clone().json()) as { jobId: string };
        service.pin(jobId, { status: 'packaging', progress: '95%', pageCount: 10 });
      }
      return response;
    };
    const { container } = render(
      <StaticExportPanel endpoint="/api/static-export" fetch={pinning} pollIntervalMs={1} />,
    );
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('packaging'));
    const section = container.querySelector('[data-docs-assistant="static-export"]');
    expect(section?.getAttribute('data-status')).toBe('packaging');
    expect(container.querySelector('[data-static-export="percent"]')).toHaveTextContent('95%');
    expect(container.querySelector('[data-static-export="pages"]')).toHaveTextContent('10 pages exported');
    expect(screen.queryByRole('button', { name: 'Get bundle link' })).toBeNull();
  });

  it('stops after pollTimeoutMs with a retry', async () => {
    const user = userEvent.setup();
    const fetch = hostFetch();
    const pinning = async (input: string, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (input.endsWith('/jobs') && response.ok) {
        const { jobId } = (await response.clone().json()) as { jobId: string };
        service.pin(jobId, { status: 'stuck' });
      }
      return response;
    };
    let clock = 0;
    render(
      <StaticExportPanel
        endpoint="/api/static-export"
        fetch={pinning}
        pollIntervalMs={1}
        pollTimeoutMs={5_000}
        now={() => clock}
        onJobChange={() => {
          clock += 1_000;
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Start export' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('the export was still "stuck" after 5 s');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
