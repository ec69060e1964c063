// @vitest-environment jsdom
/**
 * `<InsightsPanel>` in the DOM against the real chain: its fetch goes to `createInsightsHandler`
 * (in-process, as the host's route) and on to the reference service over HTTP with recorded
 * traffic. The figures it shows are the service's; a conversation row opens its transcript and
 * Back returns focus to that row; the filters reload the list; a failing route says why and
 * retries; an empty range says so. axe finds nothing to fix.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createInsightsHandler } from '../../packages/docs-assistant/src/insights';
import { InsightsPanel } from '../../packages/docs-assistant/src/insights/react';
import type { RunningService } from '../server/helpers';
import { ADMIN_KEY, DOMAIN, QUESTIONS, seededService, UNANSWERABLE } from './service';

let running: RunningService & { unanswered: string };
let routeFetch: (input: string, init?: RequestInit) => Promise<Response>;
/** Paths the panel asked the route for. */
const asked: string[] = [];

beforeAll(async () => {
  running = await seededService();
  const handler = createInsightsHandler({
    baseUrl: running.url,
    adminKey: ADMIN_KEY,
    domain: DOMAIN,
    authorize: (request) => request.headers.get('cookie') === 'session=admin',
    // jsdom is a browser to the handler's check; the handler runs on the host's server here.
    dangerouslyAllowBrowser: true,
  });
  // What the browser adds to the dashboard page's same-origin fetch.
  routeFetch = (input, init) => {
    const url = new URL(input, 'https://dashboard.example.com');
    asked.push(`${url.pathname}${url.search}`);
    const headers = new Headers(init?.headers);
    headers.set('Sec-Fetch-Site', 'same-origin');
    headers.set('Cookie', 'session=admin');
    return handler(new Request(url, { ...init, headers }));
  };
}, 60_000);
afterAll(() => running?.close());
beforeEach(() => {
  asked.length = 0;
});

const today = () => new Date();
const loaded = () => screen.findByRole('table', { name: 'Conversations' }, { timeout: 10_000 });

describe('InsightsPanel', () => {
  it("shows the range's figures, charts with their figures in words, gaps and search without results", async () => {
    render(<InsightsPanel endpoint="/api/insights" fetch={routeFetch} now={today} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading insights…');
    await loaded();
    const totals = screen
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextSibling?.textContent]);
    expect(totals).toContainEqual(['Questions', String(QUESTIONS.length + 1)]);
    expect(totals).toContainEqual(['Satisfaction', '0%']);
    const chart = screen.getByRole('img', { name: /^Questions, / });
    expect(chart.getAttribute('aria-label')).toContain(`total ${QUESTIONS.length + 1}`);
    const gaps = screen.getByRole('table', { name: /Questions the docs did not answer/ });
    expect(within(gaps).getAllByText(UNANSWERABLE).length).toBeGreaterThan(0);
    const noResults = screen.getByRole('table', { name: 'Searches without results' });
    expect(within(noResults).getByRole('rowheader', { name: 'zebra crossing quota' })).toBeInTheDocument();
    expect(asked.map((path) => path.split('?')[0])).toEqual(
      ['stats', 'questions', 'gaps', 'search', 'pages', 'conversations'].map(
        (route) => `/api/insights/${route}`,
      ),
    );
  });

  it('opens a transcript from its row and gives focus back to the row', async () => {
    const user = userEvent.setup();
    render(<InsightsPanel endpoint="/api/insights" fetch={routeFetch} now={today} />);
    await loaded();
    const row = screen.getByRole('button', { name: UNANSWERABLE });
    row.focus();
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { name: /^Conversation of / });
    expect(heading).toHaveFocus();
    const transcript = heading.closest('section')!;
    expect(within(transcript).getByText(UNANSWERABLE)).toBeInTheDocument();
    expect(within(transcript).getAllByText(/Voted down/).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Back to the conversations' }));
    await waitFor(() => expect(screen.getByRole('button', { name: UNANSWERABLE })).toHaveFocus());
  });

  it('filters the conversations to down-voted ones, asking the route again', async () => {
    const user = userEvent.setup();
    render(<InsightsPanel endpoint="/api/insights" fetch={routeFetch} now={today} />);
    const table = await loaded();
    expect(within(table).getAllByRole('row')).toHaveLength(QUESTIONS.length + 2);
    await user.click(screen.getByRole('checkbox', { name: 'Down-voted only' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(asked.at(-1)).toMatch(/^\/api\/insights\/conversations\?.*vote=down/);
  });

  it('says an empty range is empty', async () => {
    render(
      <InsightsPanel
        endpoint="/api/insights"
        fetch={routeFetch}
        defaultRange={{ from: '2020-01-01', to: '2020-01-31' }}
      />,
    );
    await loaded();
    expect(screen.getByText('No questions were asked from 2020-01-01 to 2020-01-31.')).toBeInTheDocument();
    expect(screen.getAllByText('None in this period.').length).toBeGreaterThan(3);
  });

  it('changes the range on submit, a range given backwards taken forwards', async () => {
    const user = userEvent.setup();
    render(
      <InsightsPanel
        endpoint="/api/insights"
        fetch={routeFetch}
        defaultRange={{ from: '2020-01-01', to: '2020-01-31' }}
      />,
    );
    await loaded();
    asked.length = 0;
    const from = screen.getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2020-03-01');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(asked).toHaveLength(6));
    expect(asked[0]).toBe('/api/insights/stats?from=2020-01-31&to=2020-03-01');
  });

  it('says why when the route fails, and Retry loads again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const flaky = (input: string, init?: RequestInit) =>
      fail
        ? Promise.resolve(
            new Response(JSON.stringify({ error: 'Sign in as a user allowed to read the insights.' }), {
              status: 401,
            }),
          )
        : routeFetch(input, init);
    render(<InsightsPanel endpoint="/api/insights" fetch={flaky} now={today} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The insights could not be loaded: Sign in as a user allowed to read the insights.',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await loaded();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('has nothing for axe to fix, loaded and with a transcript open', async () => {
    const user = userEvent.setup();
    const { container } = render(<InsightsPanel endpoint="/api/insights" fetch={routeFetch} now={today} />);
    await loaded();
    // jsdom has no layout: colour contrast is checked in Chromium (panel.browser.test.ts).
    const options = { rules: { 'color-contrast': { enabled: false } } };
    expect((await axe.run(container, options)).violations).toEqual([]);
    await user.click(screen.getByRole('button', { name: UNANSWERABLE }));
    await screen.findByRole('heading', { name: /^Conversation of / });
    await screen.findAllByText(/Voted down/);
    expect((await axe.run(container, options)).violations).toEqual([]);
  });
});
