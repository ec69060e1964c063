/**
 * One static export job, one page model: the bundle's HTML pages, its `.md` pages and its
 * `llms.txt` are made from the same pages of the docs pipeline (`docs/`). A change to a page's
 * front matter (its title and description, then `draft: true`) shows in all three at once; two
 * readers of the docs with their own front matter rules would not move together.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { ADMIN_KEY, auth, copyFixtureDocs, listen, makeConfig } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const post = (url: string, body?: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { ...auth(ADMIN_KEY), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Runs one export job of the `acme` domain over HTTP and returns its bundle's files as text. */
async function exportBundle(url: string): Promise<Map<string, string>> {
  const { jobId } = await (await post(`${url}/v1/static-export/jobs`, { domain: 'acme' })).json();
  let job: { status: string; error?: string } = { status: 'queued' };
  // Bounded: the fixture renders in well under a second.
  for (let i = 0; i < 1000 && (job.status === 'queued' || job.status === 'running'); i++) {
    if (i) await new Promise((resolve) => setTimeout(resolve, 10));
    job = await (await fetch(`${url}/v1/static-export/jobs/${jobId}`, { headers: auth(ADMIN_KEY) })).json();
  }
  expect(job.status, job.error).toBe('completed');
  const { bundleUrl } = await (await post(`${url}/v1/static-export/jobs/${jobId}/bundle`)).json();
  const entries = readTarGz(new Uint8Array(await (await fetch(bundleUrl)).arrayBuffer()));
  return new Map(entries.map((entry) => [entry.path, new TextDecoder().decode(entry.data)]));
}

const SETUP = (front: string) =>
  `---\n${front}\n---\n\nInstall with \`npm install acme\`. Then see [deploy](../guides/deploy).\n`;

describe('one page model for the whole bundle', () => {
  it("a page's front matter changes its HTML, its .md page and llms.txt together", async () => {
    const docs = copyFixtureDocs();
    cleanups.push(docs.remove);
    const routes = createStaticExportRoutes(makeConfig({ acme: [docs.path] }));
    const server = await listen(routes.app.fetch);
    cleanups.push(async () => {
      await server.close();
      await routes.close();
    });
    const setupFile = join(docs.path, 'guides', 'setup.md');

    writeFileSync(setupFile, SETUP('title: Installing Acme\ndescription: Put Acme on a server.\norder: 1'));
    const before = await exportBundle(server.url);
    expect(before.get('guides/setup.html')).toContain('<title>Installing Acme · Acme Docs</title>');
    expect(before.get('guides/setup.html')).toContain(
      '<meta name="description" content="Put Acme on a server.">',
    );
    expect(before.get('guides/setup.md')).toMatch(/^# Installing Acme$/m);
    expect(before.get('guides/setup.md')).toContain('Put Acme on a server.');
    expect(before.get('llms.txt')).toMatch(
      /^- \[Installing Acme\]\(guides\/setup\.md\): Put Acme on a server\.$/m,
    );

    writeFileSync(
      setupFile,
      SETUP('title: Setting up Acme\ndescription: Three steps to a running Acme.\norder: 1'),
    );
    const after = await exportBundle(server.url);
    expect(after.get('guides/setup.html')).toContain('<title>Setting up Acme · Acme Docs</title>');
    expect(after.get('guides/setup.html')).toContain(
      '<meta name="description" content="Three steps to a running Acme.">',
    );
    expect(after.get('guides/setup.md')).toMatch(/^# Setting up Acme$/m);
    expect(after.get('guides/setup.md')).toContain('Three steps to a running Acme.');
    expect(after.get('llms.txt')).toMatch(
      /^- \[Setting up Acme\]\(guides\/setup\.md\): Three steps to a running Acme\.$/m,
    );
    for (const file of ['guides/setup.html', 'guides/setup.md', 'llms.txt', 'llms-full.txt'])
      expect(after.get(file), file).not.toContain('Installing Acme');
    // The other pages link to it by its new title in the HTML sidebar too.
    expect(after.get('api.html')).toContain('>Setting up Acme</a>');

    // A draft is no page: gone from the HTML, the Markdown and llms.txt alike.
    writeFileSync(setupFile, SETUP('title: Setting up Acme\ndraft: true'));
    const draft = await exportBundle(server.url);
    expect(draft.has('guides/setup.html')).toBe(false);
    expect(draft.has('guides/setup.md')).toBe(false);
    expect(draft.get('llms.txt')).not.toContain('Setting up Acme');
    expect(draft.get('api.html')).not.toContain('Setting up Acme');
    expect(JSON.parse(draft.get('manifest.json')!).pages.map((p: { path: string }) => p.path)).not.toContain(
      '/guides/setup',
    );
  });
});

describe('the bundle names the site as the assistant does', () => {
  it("takes the site's name from its config when the domain sets no title", async () => {
    const config = makeConfig({ acme: [join(process.cwd(), 'tests/fixtures/sites/vitepress-base')] });
    const acme = config.domains.find((domain) => domain.domain === 'acme')!;
    delete acme.title;
    const routes = createStaticExportRoutes(config);
    const server = await listen(routes.app.fetch);
    cleanups.push(async () => {
      await server.close();
      await routes.close();
    });
    const bundle = await exportBundle(server.url);
    const page = [...bundle.entries()].find(([path]) => path.endsWith('.html') && path !== 'index.html');
    // VitePress's config says `title: 'Acme Cloud'`; before, the header read the domain id, "acme".
    expect(page?.[1]).toContain('<a class="da-site-title" href="');
    expect(page?.[1]).toMatch(/class="da-site-title"[^>]*>Acme Cloud<\/a>/);
    expect(bundle.get('llms.txt')).toMatch(/^# Acme Cloud$/m);
  });
});
