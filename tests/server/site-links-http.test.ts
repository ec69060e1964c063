/**
 * The service over real HTTP on 127.0.0.1 links and names each fixture site as its framework
 * publishes it (issue 37, point 1): sources and search results at the published URL (base path
 * once, trailing slash, `.html`, the framework's anchor) with `siteUrl` an origin or the origin
 * with the site's base; any other `siteUrl` stops the start with a sentence saying what to give;
 * the decline, `llms.txt` and the MCP server's instructions name the site from its config.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runCli } from '../../packages/docs-assistant-server/src/cli';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { ADMIN_KEY, ASSISTANT_KEY, authHeaders, DOMAIN, type RunningService, startService } from './helpers';
import { askOverHttp } from './sites-corpora';

const SITES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'sites');

async function search(running: RunningService, query: string): Promise<string[]> {
  const response = await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify({ query }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { metadata: { url: string } }[]).map((item) => item.metadata.url);
}

describe('links at the URL the site publishes', () => {
  const vitepress = join(SITES, 'vitepress-base');
  const question = 'What does Error E_TIMEOUT mean?';
  const expected = 'https://acme.dev/acme/guide/errors.html#error-e-timeout';

  it.each([
    ['the origin', 'https://acme.dev'],
    ['the origin with the base', 'https://acme.dev/acme/'],
    ['the origin with the base, no slash', 'https://acme.dev/acme'],
  ])('VitePress under base /acme/, siteUrl %s: the base once, .html, its anchor', async (_, siteUrl) => {
    const running = await startService({ docs: vitepress, siteUrl });
    onTestFinished(() => running.close());
    const answer = await askOverHttp(running, question);
    expect(answer.urls[0]).toBe(expected);
    expect(answer.urls.every((url) => !url.includes('/acme/acme/'))).toBe(true);
    expect(await search(running, 'E_TIMEOUT deadline')).toContain(expected);
  });

  it('MCP: search gives the published URL and get_page reads the page back from it', async () => {
    const running = await startService({ docs: vitepress, siteUrl: 'https://acme.dev/acme/' });
    onTestFinished(() => running.close());
    const client = new Client({ name: 'site-links-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
    onTestFinished(() => client.close());
    const found = (await client.callTool({ name: 'search', arguments: { query: 'E_TIMEOUT deadline' } }))
      .structuredContent as { results: { url: string }[] };
    expect(found.results[0]?.url).toBe(expected);
    for (const url of [expected, 'https://acme.dev/acme/guide/', 'https://acme.dev/acme/fr/']) {
      const page = await client.callTool({ name: 'get_page', arguments: { path: url } });
      expect(page.isError, url).toBeFalsy();
    }
  });

  it('without siteUrl: the published path, root-relative', async () => {
    const running = await startService({ docs: vitepress });
    onTestFinished(() => running.close());
    expect((await askOverHttp(running, question)).urls[0]).toBe('/acme/guide/errors.html#error-e-timeout');
  });

  it('Starlight: the trailing slash of its directory URLs; MkDocs: .html without directory URLs', async () => {
    const starlight = await startService({
      docs: join(SITES, 'starlight-base'),
      siteUrl: 'https://nimbus.dev',
    });
    onTestFinished(() => starlight.close());
    expect(await search(starlight, 'collapse a group')).toContain(
      'https://nimbus.dev/docs/guides/sidebar/#groups-1',
    );
    const mkdocs = await startService({
      docs: join(SITES, 'mkdocs-html'),
      siteUrl: 'https://example.org/quanta/',
    });
    onTestFinished(() => mkdocs.close());
    expect(await search(mkdocs, 'scrape_interval')).toContain(
      'https://example.org/quanta/guide/setup.html#scrape_interval',
    );
  });

  it('a plain folder keeps siteUrl as the base: its path is where the docs are served', async () => {
    const running = await startService({ docs: join(SITES, 'folder'), siteUrl: 'https://example.com/help' });
    onTestFinished(() => running.close());
    const urls = await search(running, 'custom domain');
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^https:\/\/example\.com\/help\//);
  });

  it('a siteUrl with another path stops the start, naming the base and what to give', async () => {
    const service = createAssistantService({
      docs: vitepress,
      domain: DOMAIN,
      assistantKey: ASSISTANT_KEY,
      adminKey: ADMIN_KEY,
      siteUrl: 'https://acme.dev/docs',
      warn: () => {},
    });
    onTestFinished(() => service.close());
    await expect(service.ready()).rejects.toThrow(
      'Domain "acme": the site URL https://acme.dev/docs has the path /docs, but the vitepress config serves the docs under /acme; give the origin (https://acme.dev) or https://acme.dev/acme, or change the base path in the config.',
    );
  });

  it.each([
    'docs.example.com',
    'ftp://docs.example.com',
    'https://docs.example.com/?lang=en',
    'https://docs.example.com/#top',
  ])('siteUrl %s is refused when the service is made, saying what to give', (siteUrl) => {
    expect(() =>
      createAssistantService({ docs: vitepress, domain: DOMAIN, siteUrl, warn: () => {} }),
    ).toThrow(
      `Domain "acme": the site URL must be an http(s) URL without query or fragment, the docs' origin (https://docs.example.com) or the origin with their base path (https://example.com/docs) (got "${siteUrl}").`,
    );
  });

  it('docs-assistant serve --site-url with another path exits 1 with that sentence, before listening', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      [
        'serve',
        '--docs',
        vitepress,
        '--site-url',
        'https://acme.dev/guide',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
      ],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    expect(code).toBe(1);
    expect(err.join('\n')).toContain(
      'the site URL https://acme.dev/guide has the path /guide, but the vitepress config serves the docs under /acme; give the origin (https://acme.dev) or https://acme.dev/acme',
    );
    expect(out.join('\n')).not.toContain('serving');
  });
});

describe('a Mintlify site split with $ref answers in each of its languages', () => {
  it.each([
    ['Comment installer la CLI ?', '/fr/quickstart'],
    ['¿Cómo registro una dirección para los webhooks?', '/es/guides/webhooks'],
    ['How do I install the CLI?', '/quickstart'],
  ])('%s → %s', async (question, page) => {
    const running = await startService({ docs: join(SITES, 'mintlify-refs') });
    onTestFinished(() => running.close());
    const answer = await askOverHttp(running, question);
    expect(answer.results[0]).toBe(page);
    expect(answer.text).not.toContain("don't cover");
  });
});

describe("the site's name in the decline, llms.txt and the MCP server", () => {
  it.each([
    ['mintlify-refs', 'Orbit'],
    ['vitepress-base', 'Acme Cloud'],
    ['starlight-base', 'Nimbus'],
    ['docusaurus-base', 'Helios'],
    ['mkdocs-html', 'Quanta'],
    // No config to name it: the domain.
    ['folder', DOMAIN],
  ])('%s: %s', async (fixture, name) => {
    const running = await startService({ docs: join(SITES, fixture) });
    onTestFinished(() => running.close());
    const answer = await askOverHttp(running, 'How do I bake sourdough bread?');
    expect(answer.text).toContain(`The ${name} docs don't cover that`);

    const llms = await fetch(`${running.url}/llms.txt`);
    expect(llms.status).toBe(200);
    expect((await llms.text()).split('\n')[0]).toBe(`# ${name}`);

    const client = new Client({ name: 'site-links-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
    onTestFinished(() => client.close());
    expect(client.getInstructions()).toContain(`the ${name} docs`);
  });

  it('the domain title given to the service wins over the config', async () => {
    const running = await startService({ docs: join(SITES, 'mintlify-refs'), title: 'Orbit Platform' });
    onTestFinished(() => running.close());
    expect((await askOverHttp(running, 'How do I bake sourdough bread?')).text).toContain(
      "The Orbit Platform docs don't cover that",
    );
  });
});
