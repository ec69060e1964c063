/**
 * The copy-paste recipes of docs/recipes/*.md, run as written against the script build: each
 * recipe's snippet (its `import … from '<service>/embed.js'` and `DocsAssistant.init({…})`, or the
 * plain-HTML tag and element) is taken from the Markdown, its example address, domain and key
 * replaced by the test service's, and put in a page shaped like the framework's output: the
 * framework's app root, which client-side navigation replaces (VitePress `#app`, Docusaurus
 * `#__docusaurus`, Material for MkDocs' container), or a full page load (Starlight, plain HTML).
 * Each must show one launcher, still one after navigating, and answer. Real framework builds are
 * not run here (too slow for every `npm test`); the VitePress recipe was also tried on a real
 * VitePress 1.6.4 build (docs/recipes/vitepress.md says how).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ASSISTANT_KEY, DOMAIN, type EmbedSite, startEmbedSite } from '../embed/embed-site';

const RECIPES = resolve(import.meta.dirname, '../../docs/recipes');
const EXAMPLE_URL = 'http://127.0.0.1:8787';
const EXAMPLE_DOMAIN = 'acme';
const EXAMPLE_KEY = 'svc_dsc_acme_public_key';

/** The recipe's text with the example service swapped for the test's. */
function recipe(name: string, origin: string): string {
  const text = readFileSync(resolve(RECIPES, `${name}.md`), 'utf8');
  // The run command and the snippet must name the same domain and key, or the page gets a 404/401.
  expect(text, `${name}.md: its serve command`).toContain(
    `--domain ${EXAMPLE_DOMAIN} --assistant-key ${EXAMPLE_KEY}`,
  );
  return text
    .replaceAll(EXAMPLE_URL, origin)
    .replaceAll(EXAMPLE_KEY, ASSISTANT_KEY)
    .replaceAll(`'${EXAMPLE_DOMAIN}'`, `'${DOMAIN}'`);
}

/** The module code of a recipe's init snippet: the import line and the init call, as written. */
function initModule(text: string, name: string): string {
  const match = /import \{ DocsAssistant \} from '([^']+)';\s*\n\s*DocsAssistant\.init\((\{[^\n]*\})\);/.exec(
    text,
  );
  if (!match)
    throw new Error(
      `docs/recipes/${name}.md has no "import { DocsAssistant } … DocsAssistant.init({…});" snippet`,
    );
  return `import { DocsAssistant } from '${match[1]}';\nDocsAssistant.init(${match[2]});`;
}

const page = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;

const content = (title: string, next: string) =>
  `<main><h1>${title}</h1><p>Install the package, then configure the theme.</p><a id="next" href="${next}">Next page</a></main>`;

/**
 * A client-side router as the frameworks have: a click on the link replaces the app root's content
 * and pushes the address, without loading a page.
 */
const router = (root: string) => `<script>
document.addEventListener('click', (event) => {
  const link = event.target.closest('a#next');
  if (!link) return;
  event.preventDefault();
  history.pushState({}, '', link.href);
  document.querySelector(${JSON.stringify(root)}).innerHTML = ${JSON.stringify(content('Second page', '/'))};
});
</script>`;

const launchers = (p: Page) => p.getByRole('button', { name: 'Ask AI', exact: true });

async function expectAnswer(p: Page): Promise<void> {
  await launchers(p).click();
  const input = p.getByRole('textbox', { name: /question/i });
  await input.fill('How do I install it?');
  await input.press('Enter');
  const answer = p.locator('[data-docs-assistant="message"][data-role="assistant"]').first();
  await expect
    .poll(() => answer.locator('[data-docs-assistant="source"]').count(), { timeout: 30_000 })
    .toBeGreaterThan(0);
}

let site: EmbedSite;

beforeAll(async () => {
  site = await startEmbedSite('preact');
}, 300_000);

afterAll(async () => {
  await site?.close();
});

describe.each([
  ['vitepress', '#app'],
  ['docusaurus', '#__docusaurus'],
  ['mkdocs', '[data-md-component="container"]'],
])('the %s recipe', (name, root) => {
  it('shows one launcher that stays over client-side navigation, and answers', async () => {
    const module = initModule(recipe(name, site.origin), name);
    const rootAttribute = root.startsWith('#') ? `id="${root.slice(1)}"` : 'data-md-component="container"';
    // MkDocs loads its extra_javascript at the end of <body>; the others put the script in <head>.
    const script = `<script type="module">${module}</script>`;
    const html =
      name === 'mkdocs'
        ? page('', `<div ${rootAttribute}>${content('First page', '/second')}</div>${router(root)}${script}`)
        : page(script, `<div ${rootAttribute}>${content('First page', '/second')}</div>${router(root)}`);
    site.page(`/${name}/`, html);
    const p = await site.browser.newPage();
    const errors: string[] = [];
    p.on('pageerror', (error) => errors.push(error.message));
    try {
      await p.goto(`${site.origin}/${name}/`);
      await expect.poll(() => launchers(p).count(), { timeout: 30_000 }).toBe(1);
      await p.locator('a#next').click();
      await expect.poll(() => p.locator('h1').innerText()).toBe('Second page');
      expect(await launchers(p).count()).toBe(1);
      await expectAnswer(p);
      expect(errors).toEqual([]);
    } finally {
      await p.close();
    }
  });
});

describe('the starlight recipe', () => {
  it('shows the launcher on every page load, and answers', async () => {
    const module = initModule(recipe('starlight', site.origin), 'starlight');
    for (const path of ['/starlight/', '/starlight/second/']) {
      site.page(
        path,
        page(`<script type="module">${module}</script>`, content('Page', '/starlight/second/')),
      );
    }
    const p = await site.browser.newPage();
    try {
      await p.goto(`${site.origin}/starlight/`);
      await expect.poll(() => launchers(p).count(), { timeout: 30_000 }).toBe(1);
      await p.locator('a#next').click();
      await p.waitForURL(/second/);
      await expect.poll(() => launchers(p).count(), { timeout: 30_000 }).toBe(1);
      await expectAnswer(p);
    } finally {
      await p.close();
    }
  });
});

describe('the plain HTML recipe', () => {
  it('shows the launcher from its tag and element, and answers', async () => {
    const text = recipe('html', site.origin);
    const block = /```html\n([\s\S]*?)```/.exec(text)?.[1];
    expect(block, 'html.md has an html block').toBeTruthy();
    // The test pages keep conversations in memory and the light theme, as the other embed tests do.
    site.page(
      '/plain/',
      page(
        '',
        `${content('Page', '/plain/')}${block!.replace('<docs-assistant ', '<docs-assistant storage="memory" ')}`,
      ),
    );
    const p = await site.browser.newPage();
    try {
      await p.goto(`${site.origin}/plain/`);
      await expect.poll(() => launchers(p).count(), { timeout: 30_000 }).toBe(1);
      await expectAnswer(p);
    } finally {
      await p.close();
    }
  });
});
