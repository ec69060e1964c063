/**
 * Docs search in the widget, in Chromium, against the real reference service over HTTP on
 * 127.0.0.1 (CORS and all): typing searches after one debounce, results are grouped by page with
 * the query's words marked, ↑/↓/Enter open a result, the "Ask AI" row sends the query as a
 * question, a superseded search is aborted, deployments without search send nothing, and axe finds
 * nothing to fix. The page is built with Vite from the sources (see tests/ui/widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { type RunningService, startService } from '../server/helpers';
import { headerAction, offersAction, serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/search-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** How long a page's Markdown may take to come back from the worker on two shared cores: a limit, not a measurement. */
const PARSED = { timeout: 20_000 };

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
const features = q.get('features') ? JSON.parse(q.get('features')) : undefined;
createRoot(document.getElementById('app')).render(
  <DocsAssistant variant="inline" domain="acme" apiKey="svc_dsc_test_assistant" baseUrl={q.get('service') ?? undefined}
    storage="memory" shortcut={false} collectors={false} theme="light"
    deployment={q.get('deployment') ?? undefined} features={features} defaultView={q.get('view') ?? undefined}
    sourceAction={q.get('sourceAction') ?? undefined} />,
);
`;

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'search', main: MAIN });
  ({ browser, origin } = widgetPage);
  // Result links point at the test page's own server, so opening one is a navigation it serves.
  service = await startService({ siteUrl: `${origin}/docs` });
}, 90_000);

afterAll(async () => {
  await widgetPage?.close();
  await service?.close();
});

interface Opened {
  page: Page;
  /** Requests to the search endpoint, in order. */
  searches: Request[];
  /** Every request to the service. */
  serviceRequests: Request[];
  close: () => Promise<void>;
}

async function open(params: Record<string, string>): Promise<Opened> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const searches: Request[] = [];
  const serviceRequests: Request[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(service!.url)) return;
    serviceRequests.push(request);
    if (request.method() === 'POST' && request.url().includes('/discovery/v1/search/'))
      searches.push(request);
  });
  const query = new URLSearchParams({ service: service!.url, ...params });
  await page.goto(`${origin}/?${query}`);
  await page
    .locator('[data-docs-assistant="input"]')
    .or(page.locator('[data-error-kind="unavailable"]'))
    .first()
    .waitFor();
  return {
    page,
    searches,
    serviceRequests,
    close: async () => {
      expect(errors).toEqual([]);
      await context.close();
    },
  };
}

/** axe's violations in the widget, every rule. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (el: Element) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
    };
    const found = await axe.run(document.querySelector('[data-docs-assistant="root"]')!);
    return found.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

const input = (page: Page) => page.locator('[data-docs-assistant="input"]');
const results = (page: Page) => page.locator('[data-docs-assistant="search-result"]');
const queryOf = (request: Request) => (request.postDataJSON() as { query: string }).query;

describe('search in the panel (cloud, defaultView="search")', () => {
  it('shows results grouped by page, the words marked, above an "Ask AI" row', async () => {
    const { page, searches, close } = await open({ view: 'search' });
    // One change of the box's text (as a paste): one search. Keystroke by keystroke, the debounce
    // is shown with fake timers in use-docs-search.test.tsx.
    await input(page).fill('dark mode');
    await results(page).first().waitFor();
    expect(searches.map(queryOf)).toEqual(['dark mode']);
    const group = page.getByRole('group', { name: 'Theming' });
    await expect.poll(() => group.getByRole('option').count()).toBeGreaterThan(0);
    const marked = await page.locator('[data-docs-assistant="search"] mark').allTextContents();
    expect(marked.map((text) => text.toLowerCase())).toEqual(expect.arrayContaining(['dark', 'mode']));
    const rows = await page.getByRole('listbox').getByRole('option').allTextContents();
    expect(rows.at(-1)).toBe('Ask AI: “dark mode”');
    expect(await page.locator('[data-docs-assistant="search-status"]').textContent()).toMatch(/\d+ results?/);
    await close();
  });

  it('↓ and Enter open the chosen result', async () => {
    const { page, close } = await open({ view: 'search' });
    // Filled at once: a later answer for a shorter query cannot reset the chosen row mid-test.
    await input(page).fill('accent color');
    await results(page).first().waitFor();
    const href = await results(page).first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^${origin}/docs/guides/theming#`));
    await page.keyboard.press('ArrowDown');
    const first = results(page).first();
    await expect.poll(() => first.getAttribute('aria-selected')).toBe('true');
    expect(await input(page).getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    await Promise.all([page.waitForURL(href!), page.keyboard.press('Enter')]);
    await close();
  });

  it('"Ask AI" sends the query as a question and shows the answer', async () => {
    const { page, serviceRequests, close } = await open({ view: 'search' });
    await input(page).fill('How do I enable dark mode?');
    await results(page).first().waitFor();
    // ↑ from the box goes to the last row: Ask AI.
    await page.keyboard.press('ArrowUp');
    const askRow = page.locator('[data-action="ask-ai"]');
    await expect.poll(() => askRow.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    const answer = page.locator('[data-docs-assistant="message"][data-role="assistant"]');
    await answer.first().waitFor();
    await expect.poll(() => answer.first().textContent()).toMatch(/theme="dark"/);
    const asked = serviceRequests.filter((request) => request.url().includes('/discovery/v1/assistant/'));
    expect(asked).toHaveLength(1);
    const body = asked[0]!.postDataJSON() as { messages: { content: string }[] };
    expect(body.messages.at(-1)?.content).toBe('How do I enable dark mode?');
    expect(await results(page).count()).toBe(0);
    expect(await input(page).inputValue()).toBe('');
    await close();
  });

  it('aborts a search a newer query supersedes, and shows the newer results', async () => {
    const { page, searches, close } = await open({ view: 'search' });
    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().includes('/discovery/v1/search/')) aborted.push(queryOf(request));
    });
    // The first search is held at the network until the page gives up on it.
    let held = false;
    await page.route('**/discovery/v1/search/**', async (route) => {
      if (!held) {
        held = true;
        return; // never answered: only the page's abort ends it
      }
      await route.continue();
    });
    await input(page).fill('notifications');
    await expect.poll(() => searches.length).toBe(1);
    await input(page).fill('notifications badge');
    await expect.poll(() => aborted).toEqual(['notifications']);
    await results(page).first().waitFor();
    expect(searches.map(queryOf)).toEqual(['notifications', 'notifications badge']);
    expect(await page.getByRole('group', { name: 'Notifications' }).count()).toBe(1);
    await close();
  });

  it('says when nothing matches, with the Ask AI row still there', async () => {
    const { page, close } = await open({ view: 'search' });
    await input(page).click();
    await page.keyboard.type('xylophone');
    const status = page.locator('[data-docs-assistant="search-status"]');
    await expect.poll(() => status.textContent()).toBe('No results for “xylophone”');
    expect(await results(page).count()).toBe(0);
    expect(await page.locator('[data-action="ask-ai"]').textContent()).toBe('Ask AI: “xylophone”');
    await close();
  });

  it('has no axe violations with results and a chosen row', async () => {
    const { page, close } = await open({ view: 'search' });
    await input(page).click();
    await page.keyboard.type('dark mode');
    await results(page).first().waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});

describe('sourceAction="preview": pages open in the panel', () => {
  const preview = (page: Page) => page.locator('[data-docs-assistant="page-preview"]');

  it('Enter on a result shows its page from the page endpoint; Back returns to the results', async () => {
    const { page, serviceRequests, close } = await open({ view: 'search', sourceAction: 'preview' });
    // Filled at once: a later answer for a shorter query cannot reset the chosen row mid-test.
    await input(page).fill('accent color');
    await results(page).first().waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => results(page).first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => preview(page).getAttribute('data-status')).toBe('ready');
    expect(page.url()).toContain(`${origin}/?`);
    // The page's Markdown is parsed by the widget's worker: on screen a moment after the fetch.
    const text = () => preview(page).locator('[data-part="page"]').textContent();
    await expect.poll(text, PARSED).toMatch(/Accent color/);
    expect(await text()).toMatch(/Dark mode/);
    expect(await axeViolations(page)).toEqual([]);
    const asked = serviceRequests.filter((request) => request.url().includes('/discovery/v1/page/'));
    expect(asked.map((request) => request.postDataJSON())).toEqual([{ path: '/guides/theming' }]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('back');
    expect(await preview(page).locator('[data-action="open-page"]').getAttribute('href')).toMatch(
      new RegExp(`^${origin}/docs/guides/theming#`),
    );
    await page.keyboard.press('Enter');
    await results(page).first().waitFor();
    expect(await preview(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-docs-assistant'))).toBe(
      'input',
    );
    await close();
  });

  it("an answer's source opens in the panel too", async () => {
    const { page, close } = await open({ sourceAction: 'preview' });
    await input(page).click();
    await page.keyboard.type('How do I enable dark mode?');
    await page.keyboard.press('Enter');
    const source = page.locator('[data-docs-assistant="source"]').first();
    await source.waitFor();
    await source.click();
    await expect.poll(() => preview(page).getAttribute('data-status')).toBe('ready');
    expect(page.url()).toContain(`${origin}/?`);
    await expect
      .poll(() => preview(page).locator('[data-part="page"]').textContent(), PARSED)
      .toMatch(/Dark mode/);
    await page.locator('[data-action="back"]').click();
    await page.locator('[data-docs-assistant="message"][data-role="assistant"]').waitFor();
    await close();
  });

  it('a page the docs do not have says so', async () => {
    const { page, close } = await open({ sourceAction: 'preview' });
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/docs/not/a/page';
      link.textContent = 'Gone';
      link.setAttribute('data-docs-assistant', 'source');
      document.querySelector('[data-docs-assistant="panel"]')!.append(link);
    });
    await page.locator('a[href="/docs/not/a/page"]').click();
    await expect.poll(() => preview(page).getAttribute('data-status')).toBe('error');
    expect(await preview(page).getByRole('alert').textContent()).toMatch(/not in the docs/);
    await close();
  });
});

describe('where search is available', () => {
  it('cloud with the default view: typing asks; the header button turns on search', async () => {
    const { page, searches, close } = await open({});
    await input(page).click();
    await page.keyboard.type('dark');
    // In the header's "More" menu: a checkbox item, checked while typing searches.
    const toggle = await headerAction(page, 'search-view');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    expect(await (await headerAction(page, 'search-view')).getAttribute('aria-checked')).toBe('true');
    await results(page).first().waitFor();
    expect(searches.map(queryOf)).toEqual(['dark']);
    await close();
  });

  // That nothing is sent where search is off is shown with fake timers in use-docs-search.test.tsx;
  // here, that the panel offers no search there and does where the features turn it on.
  it('client-hosted: no search unless features.search, instant results with it', async () => {
    const off = await open({ deployment: 'client-hosted', view: 'search' });
    expect(await offersAction(off.page, 'search-view')).toBe(false);
    await off.close();

    const on = await open({ deployment: 'client-hosted', view: 'search', features: '{"search":true}' });
    expect(await (await headerAction(on.page, 'search-view')).getAttribute('aria-checked')).toBe('true');
    await on.page.keyboard.press('Escape');
    await input(on.page).fill('dark');
    await results(on.page).first().waitFor();
    expect(on.searches.map(queryOf)).toEqual(['dark']);
    await on.close();
  });

  it('features.assistant false: search without the Ask AI row', async () => {
    const { page, close } = await open({ view: 'search', features: '{"assistant":false}' });
    await input(page).click();
    await page.keyboard.type('dark mode');
    await results(page).first().waitFor();
    expect(await page.locator('[data-action="ask-ai"]').count()).toBe(0);
    // Enter with no row chosen asks nothing: the results stay, with the text.
    await page.keyboard.press('Enter');
    expect(await input(page).inputValue()).toBe('dark mode');
    expect(await results(page).count()).toBeGreaterThan(0);
    await close();
  });

  it('air-gapped: the panel says the assistant is unavailable and nothing is sent', async () => {
    const { page, serviceRequests, close } = await open({
      deployment: 'air-gapped',
      view: 'search',
      features: '{"search":true}',
    });
    expect(await page.locator('[data-error-kind="unavailable"]').textContent()).toMatch(/not available/);
    // No question box, no search view: there is nothing that could send.
    expect(await page.locator('[data-docs-assistant="input"]').count()).toBe(0);
    expect(await page.locator('[data-action="search-view"]').count()).toBe(0);
    expect(serviceRequests).toEqual([]);
    await close();
  });
});
