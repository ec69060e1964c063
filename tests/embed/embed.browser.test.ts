/**
 * The script build (`docs-assistant/embed`) on plain HTML pages in Chromium, served with the real
 * reference service on one origin (embed-site.ts): the custom element answers a question from the
 * service; the browser API's calls made before `init` run in order once it is ready; a hostile
 * stylesheet changes nothing in the widget (computed styles of its slots compared with the same
 * page without it) and the widget's CSS changes nothing on the page; under a strict CSP it works
 * with `nonce` and says what is wrong without it; `?assistant=` asks on load; axe finds nothing.
 * Run on the React build and on the Preact one (the one shipped is the one that passes).
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import {
  ASSISTANT_KEY,
  axeSource,
  DOMAIN,
  EMBED_FLAVOURS,
  type EmbedSite,
  elementAttributes,
  startEmbedSite,
} from './embed-site';

const HOSTILE_CSS = `
html { font-size: 10px !important; }
* {
  box-sizing: content-box !important; margin: 7px !important; padding: 3px !important;
  font-family: "Comic Sans MS", cursive !important; font-size: 22px !important; color: red !important;
  line-height: 3 !important; letter-spacing: 2px !important; text-transform: uppercase !important;
  border: 2px dashed lime !important; background: yellow !important; text-align: right !important;
  visibility: visible !important; opacity: 0.9 !important; transition: none !important;
}
button { all: unset !important; }
docs-assistant { position: absolute !important; top: 0 !important; font-size: 40px !important; }
div, section, aside { display: inline !important; }
`;

const docPage = (
  origin: string,
  options: { head?: string; body?: string; element?: string } = {},
) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plain docs page</title><link rel="icon" href="data:,">
${options.head ?? ''}
<script type="module" src="/embed.js"></script>
</head><body>
<main>
<h1>Getting started</h1>
<p id="intro">Install the package, then configure the theme in the settings file.</p>
<pre><code>npm install acme</code></pre>
<button type="button" id="page-button">A page button</button>
</main>
${options.element ?? `<docs-assistant ${elementAttributes(origin)}></docs-assistant>`}
${options.body ?? ''}
</body></html>`;

/** Styles of the widget's slots that host CSS would change. */
const PROPERTIES = [
  'font-family',
  'font-size',
  'font-weight',
  'line-height',
  'letter-spacing',
  'text-transform',
  'text-align',
  'color',
  'background-color',
  'box-sizing',
  'margin-top',
  'margin-left',
  'padding-top',
  'padding-left',
  'border-top-width',
  'border-top-style',
  'border-top-color',
  'display',
  'position',
  'opacity',
  'width',
  'height',
];
const SLOTS = ['launcher', 'panel', 'composer', 'input', 'message'];

async function slotStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.evaluate(
    ({ slots, properties }) => {
      const root = document.querySelector('docs-assistant')!.shadowRoot!;
      const out: Record<string, Record<string, string>> = {};
      for (const slot of slots) {
        const el = root.querySelector(`[data-docs-assistant="${slot}"]`);
        if (!el) continue;
        const style = getComputedStyle(el);
        out[slot] = Object.fromEntries(properties.map((name) => [name, style.getPropertyValue(name)]));
      }
      return out;
    },
    { slots: SLOTS, properties: PROPERTIES },
  );
}

const ANSWER = '[data-docs-assistant="message"][data-role="assistant"]';

/** Static pages in the markup VitePress and MkDocs (Material) generate, with the script tag added. */
const SITES = {
  vitepress: (origin: string) => `<!doctype html>
<html lang="en-US" dir="ltr" class="dark"><head><meta charset="utf-8"><title>Getting started | Acme</title>
<link rel="icon" href="data:,">
<style>:root{--vp-c-brand-1:#646cff;font-size:18px}.vp-doc p{line-height:28px;margin:16px 0}.vp-doc div[class*='language-']{position:relative;background:#f6f6f7;border-radius:8px}.vp-doc div[class*='language-'] pre{margin:0;padding:20px 24px;overflow-x:auto}* {box-sizing:border-box}</style>
<script type="module" src="/embed.js"></script></head>
<body><div id="app"><div class="Layout"><header class="VPNav"><div class="VPNavBar"><a class="title" href="/">Acme</a></div></header>
<div class="VPContent has-sidebar"><div class="VPDoc has-aside"><div class="container"><div class="content"><main class="main">
<div style="position:relative" class="vp-doc _guide_getting-started"><div>
<h1 id="getting-started" tabindex="-1">Getting started <a class="header-anchor" href="#getting-started" aria-label="Permalink to Getting started">​</a></h1>
<p id="selectable">Install the package, then configure the theme in the settings file.</p>
<div class="language-sh vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">sh</span><pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code><span class="line"><span style="--shiki-light:#6F42C1">npm install acme</span></span></code></pre></div>
</div></div></main></div></div></div></div></div></div>
<docs-assistant ${elementAttributes(origin)}></docs-assistant>
</body></html>`,
  mkdocs: (origin: string) => `<!doctype html>
<html lang="en" class="no-js"><head><meta charset="utf-8"><title>Getting started - Acme</title>
<link rel="icon" href="data:,">
<style>html{font-size:125%}body{margin:0}.md-typeset{font-size:.8rem;line-height:1.6}.md-typeset pre>code{display:block;padding:.77em 1.18em;overflow:auto}.md-typeset .highlight{background:#f5f5f5}*{margin:0}</style>
<script type="module" src="/embed.js"></script></head>
<body dir="ltr" data-md-color-scheme="default"><div class="md-container" data-md-component="container"><main class="md-main" data-md-component="main"><div class="md-main__inner md-grid">
<div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">
<h1 id="getting-started">Getting started<a class="headerlink" href="#getting-started" title="Permanent link">¶</a></h1>
<p id="selectable">Install the package, then configure the theme in the settings file.</p>
<div class="language-bash highlight"><pre><span></span><code><span class="w">npm install acme</span></code></pre></div>
</article></div></div></main></div>
<docs-assistant ${elementAttributes(origin)}></docs-assistant>
</body></html>`,
};

/** A module the page loads (CSP `script-src 'self'` allows no inline script). */
const API_SCRIPT = (origin: string) => `
const log = [];
window.__log = log;
const api = window.DocsAssistant;
// All before init: they wait for the widget, then run in this order.
api.update({ labels: { launcher: 'Help me' } }).then(() => log.push('update'));
api.open({ source: 'api' }).then(() => log.push('open'));
api.ask('How do I install it?').then(() => log.push('ask'));
api.init({
  domain: ${JSON.stringify(DOMAIN)}, apiKey: ${JSON.stringify(ASSISTANT_KEY)}, baseUrl: ${JSON.stringify(origin)},
  storage: 'memory', theme: 'light',
  onEvent: (event) => log.push('event:' + event.type),
}).then(() => log.push('init'));
`;

const CLOSED_SCRIPT = (origin: string) => `
const log = [];
window.__log = log;
window.DocsAssistant.init({
  domain: ${JSON.stringify(DOMAIN)}, apiKey: ${JSON.stringify(ASSISTANT_KEY)}, baseUrl: ${JSON.stringify(origin)},
  storage: 'memory', shadow: 'closed', onEvent: (event) => log.push('event:' + event.type),
}).then(() => log.push('init'));
window.DocsAssistant.ask('How do I install it?').then(() => log.push('ask'));
`;

describe.each(EMBED_FLAVOURS)('the script build (%s)', (flavour) => {
  let site: EmbedSite;
  const opened: { close: () => Promise<unknown> }[] = [];

  beforeAll(async () => {
    site = await startEmbedSite(flavour);
  }, 180_000);

  afterAll(async () => {
    await site?.close();
  });

  afterEach(async () => {
    for (const context of opened.splice(0)) await context.close();
  });

  async function visit(
    path: string,
    errors: string[] = [],
    wait = true,
  ): Promise<{ page: Page; console: ConsoleMessage[] }> {
    const context = await site.browser.newContext();
    opened.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const messages: ConsoleMessage[] = [];
    page.on('console', (message) => messages.push(message));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.origin}${path}`);
    if (wait) await page.locator('[data-docs-assistant="launcher"]').waitFor();
    return { page, console: messages };
  }

  /** Asks through the composer and waits for the whole answer. */
  async function askInPanel(page: Page, question: string): Promise<string> {
    const input = page.locator('[data-docs-assistant="input"]');
    await input.fill(question);
    await input.press('Enter');
    return answered(page);
  }

  async function answered(page: Page): Promise<string> {
    await page.locator(ANSWER).first().waitFor({ state: 'attached' });
    await page.locator('[data-docs-assistant="root"][data-status="ready"]').waitFor({ state: 'attached' });
    await expect
      .poll(async () => (await page.locator(ANSWER).last().textContent())?.length ?? 0)
      .toBeGreaterThan(20);
    return (await page.locator(ANSWER).last().textContent()) ?? '';
  }

  it('is a custom element in a shadow root that answers a question from the reference service', async () => {
    site.page('/plain', docPage(site.origin));
    const errors: string[] = [];
    const { page } = await visit('/plain', errors);
    await page.locator('[data-docs-assistant="launcher"]').click();
    expect(await askInPanel(page, 'How do I install it?')).toMatch(/\w/);
    expect(await page.evaluate(() => document.querySelector('docs-assistant')!.shadowRoot !== null)).toBe(
      true,
    );
    // Nothing of the widget is in the page's own DOM.
    expect(
      await page.evaluate(() => document.querySelectorAll('[data-docs-assistant="launcher"]').length),
    ).toBe(0);
    expect(errors).toEqual([]);
  });

  it('runs browser API calls made before init in order once ready; update keeps the conversation; reset, destroy', async () => {
    site.page('/api.js', API_SCRIPT(site.origin), 'text/javascript');
    site.page(
      '/api',
      docPage(site.origin, { element: '', body: '<script type="module" src="/api.js"></script>' }),
    );
    const errors: string[] = [];
    const { page } = await visit('/api', errors);
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { __log: string[] }).__log.filter((x) => !x.startsWith('event:')),
        ),
      )
      .toEqual(['init', 'update', 'open', 'ask']);
    expect(await page.locator('[data-docs-assistant="launcher"]').textContent()).toBe('Help me');
    await expect
      .poll(() => page.locator('[data-docs-assistant="panel"]').getAttribute('data-state'))
      .toBe('open');
    await answered(page);
    const user = page.locator('[data-docs-assistant="message"][data-role="user"]');
    expect(await userQuestions(page)).toEqual(['How do I install it?']);
    const events = await page.evaluate(() =>
      (window as unknown as { __log: string[] }).__log.filter((x) => x.startsWith('event:')),
    );
    expect(events.slice(0, 2)).toEqual(['event:open', 'event:ask']);

    // null restores the default label; the conversation stays.
    await page.evaluate(() =>
      (window as unknown as { DocsAssistant: { update: (c: object) => Promise<void> } }).DocsAssistant.update(
        { labels: null, theme: 'dark' },
      ),
    );
    expect(await page.locator('[data-docs-assistant="launcher"]').textContent()).toBe('Ask AI');
    expect(await page.locator('[data-docs-assistant="root"]').getAttribute('data-theme')).toBe('dark');
    expect(await user.count()).toBe(1);

    await page.evaluate(() =>
      (window as unknown as { DocsAssistant: { close: () => Promise<void> } }).DocsAssistant.close(),
    );
    expect(await page.locator('[data-docs-assistant="panel"]').getAttribute('data-state')).toBe('closed');

    // focus: false opens the panel and leaves focus where the page had it.
    await page.focus('#page-button');
    await page.evaluate(() =>
      (window as unknown as { DocsAssistant: { open: (o: object) => Promise<void> } }).DocsAssistant.open({
        focus: false,
      }),
    );
    expect(await page.locator('[data-docs-assistant="panel"]').getAttribute('data-state')).toBe('open');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('page-button');
    await page.evaluate(() =>
      (window as unknown as { DocsAssistant: { close: () => Promise<void> } }).DocsAssistant.close(),
    );

    await page.evaluate(() =>
      (window as unknown as { DocsAssistant: { reset: () => Promise<void> } }).DocsAssistant.reset(),
    );
    await expect.poll(() => page.locator('[data-docs-assistant="message"]').count()).toBe(0);

    // Asked with the panel closed: it stays closed and the answer still comes.
    await page.evaluate(() =>
      (
        window as unknown as { DocsAssistant: { ask: (q: string, o: object) => Promise<void> } }
      ).DocsAssistant.ask('How do I configure the theme?', { open: false }),
    );
    expect(await page.locator('[data-docs-assistant="panel"]').getAttribute('data-state')).toBe('closed');
    await answered(page);

    await page.evaluate(() =>
      (window as unknown as { DocsAssistant: { destroy: () => Promise<void> } }).DocsAssistant.destroy(),
    );
    expect(await page.evaluate(() => document.querySelectorAll('docs-assistant').length)).toBe(0);
    // A second init after destroy mounts again.
    await page.evaluate(
      ({ domain, apiKey, baseUrl }) =>
        (window as unknown as { DocsAssistant: { init: (c: object) => Promise<void> } }).DocsAssistant.init({
          domain,
          apiKey,
          baseUrl,
          storage: 'memory',
        }),
      { domain: DOMAIN, apiKey: ASSISTANT_KEY, baseUrl: site.origin },
    );
    await page.locator('[data-docs-assistant="launcher"]').waitFor();
    expect(errors).toEqual([]);
  });

  it('renders in a closed shadow root with shadow: "closed", the API still driving it', async () => {
    site.page('/closed.js', CLOSED_SCRIPT(site.origin), 'text/javascript');
    site.page(
      '/closed',
      docPage(site.origin, { element: '', body: '<script type="module" src="/closed.js"></script>' }),
    );
    const errors: string[] = [];
    const { page } = await visit('/closed', errors, false);
    const log = () => page.evaluate(() => (window as unknown as { __log: string[] }).__log);
    // The answer's event says the question went out and came back, unseen by page scripts.
    await expect.poll(log).toContain('event:answer');
    expect(await log()).toEqual(expect.arrayContaining(['init', 'ask', 'event:open', 'event:ask']));
    expect(await page.evaluate(() => document.querySelector('docs-assistant')!.shadowRoot)).toBeNull();
    expect(await page.locator('[data-docs-assistant="launcher"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('looks the same under a hostile stylesheet, and its CSS does not reach the page', async () => {
    site.page('/clean', docPage(site.origin));
    site.page('/hostile', docPage(site.origin, { head: `<style>${HOSTILE_CSS}</style>` }));
    site.page(
      '/clean-no-widget',
      docPage(site.origin, { element: '' }).replace('<script type="module" src="/embed.js"></script>', ''),
    );
    const measured: Record<string, Record<string, Record<string, string>>> = {};
    const pageStyles: Record<string, unknown> = {};
    for (const path of ['/clean', '/hostile']) {
      const { page } = await visit(path);
      const closed = await slotStyles(page);
      await page.locator('[data-docs-assistant="launcher"]').click();
      await askInPanel(page, 'How do I install it?');
      measured[path] = { ...(await slotStyles(page)), closedLauncher: closed.launcher! };
      if (path === '/clean') pageStyles.withWidget = await hostStyles(page);
    }
    const { page } = await visit('/clean-no-widget', [], false);
    pageStyles.withoutWidget = await hostStyles(page);
    expect(Object.keys(measured['/clean']!).sort()).toEqual([...SLOTS, 'closedLauncher'].sort());
    expect(measured['/hostile']).toEqual(measured['/clean']);
    // The widget's own look, not the browser's defaults (so the comparison compares something).
    // 0.875rem in the stylesheet: 14px whatever the page's html font-size (10px on /hostile).
    expect(measured['/clean']!.launcher!['font-size']).toBe('14px');
    expect(pageStyles.withWidget).toEqual(pageStyles.withoutWidget);
  });

  it('works under a strict CSP with the nonce, and says what is wrong without it', async () => {
    const csp = {
      'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'nonce-n0nc3'",
    };
    site.page('/csp', {
      html: docPage(site.origin, {
        element: `<docs-assistant ${elementAttributes(site.origin, 'nonce="n0nc3"')}></docs-assistant>`,
      }),
      headers: csp,
    });
    site.page('/csp-no-nonce', { html: docPage(site.origin), headers: csp });
    site.page('/no-csp', docPage(site.origin));

    const reference = await visit('/no-csp');
    const expected = await slotStyles(reference.page);

    // Every violation from here on (the panel's chunks load on the first open), read at the end.
    const watchViolations = (page: Page) =>
      page.evaluate(() => {
        const found: string[] = [];
        (window as unknown as { violations: string[] }).violations = found;
        document.addEventListener('securitypolicyviolation', (event) =>
          found.push(
            `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
          ),
        );
      });
    const violations = (page: Page) =>
      page.evaluate(() => (window as unknown as { violations: string[] }).violations);
    const { page, console } = await visit('/csp');
    await watchViolations(page);
    expect(await slotStyles(page)).toEqual(expected);
    expect(
      await page.evaluate(
        () => document.querySelector('docs-assistant')!.shadowRoot!.querySelector('style')!.nonce,
      ),
    ).toBe('n0nc3');
    await page.locator('[data-docs-assistant="launcher"]').click();
    expect(await askInPanel(page, 'How do I install it?')).toMatch(/\w/);
    const logged = console.filter((m) => m.type() === 'error').map((m) => m.text());
    expect(logged.filter((text) => /docs-assistant|style-src/.test(text))).toEqual([]);
    // Nothing of the widget's asks the policy for what it refuses (a site's CSP reports stay quiet).
    expect(await violations(page)).toEqual([]);
    // The watch sees one when there is one: a <style> without the nonce.
    await page.evaluate(() => document.head.append(document.createElement('style')));
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^style-src/)]);

    const bare = await visit('/csp-no-nonce');
    await bare.page.locator('[data-docs-assistant="launcher"]').waitFor();
    const errors = bare.console.filter((m) => m.type() === 'error').map((m) => m.text());
    expect(errors.some((text) => /docs-assistant: .*Content-Security-Policy.*nonce/.test(text))).toBe(true);
  });

  it('?assistant=<question> asks on load and leaves the address; url-parameter="false" opts out', async () => {
    site.page('/url', docPage(site.origin));
    const { page } = await visit(`/url?assistant=${encodeURIComponent('How do I install it?')}&keep=1`);
    await answered(page);
    expect(await userQuestions(page)).toEqual(['How do I install it?']);
    expect(await page.locator('[data-docs-assistant="panel"]').getAttribute('data-state')).toBe('open');
    expect(new URL(page.url()).search).toBe('?keep=1');

    site.page(
      '/url-off',
      docPage(site.origin, {
        element: `<docs-assistant ${elementAttributes(site.origin, 'url-parameter="false"')}></docs-assistant>`,
      }),
    );
    const off = await visit('/url-off?assistant');
    await off.page.locator('[data-docs-assistant="launcher"]').waitFor();
    expect(await off.page.locator('[data-docs-assistant="panel"]').count()).toBe(0);
  });

  it.each(Object.keys(SITES))(
    'offers "Ask AI" on a selection and on a code block of a %s page',
    async (name) => {
      const path = `/site-${name}`;
      site.page(path, SITES[name as keyof typeof SITES](site.origin));
      const errors: string[] = [];
      const { page } = await visit(path, errors);
      const requests: { context?: { type: string; value: string }[] }[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/discovery/v1/assistant/'))
          requests.push(request.postDataJSON() as (typeof requests)[number]);
      });

      // Select a sentence of the page's text the way a reader does (drag), then press "Ask AI".
      const text = page.locator('#selectable');
      const box = (await text.boundingBox())!;
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      const askSelection = page.locator('[data-docs-assistant="ask-selection"]');
      await askSelection.click();
      await expect
        .poll(() => page.locator('[data-docs-assistant="panel"]').getAttribute('data-state'))
        .toBe('open');
      const chips = page.locator('[data-docs-assistant="context"]');
      await expect.poll(() => chips.count()).toBe(1);
      expect(await chips.first().getAttribute('data-context-type')).toBe('textSelection');

      // Hover a code block: its "Ask AI" button adds the code.
      await page.locator('pre').first().hover();
      await page.locator('[data-docs-assistant="ask-code"]').click();
      await expect.poll(() => chips.count()).toBe(2);
      expect(await chips.nth(1).getAttribute('data-context-type')).toBe('code');

      await askInPanel(page, 'What does this do?');
      const sent = requests.at(-1)!.context ?? [];
      expect(sent.map((item) => item.type)).toEqual(['textSelection', 'code']);
      expect(sent[0]!.value).toContain('configure the theme');
      expect(sent[1]!.value).toContain('npm install acme');
      // The buttons live in the widget's shadow root, never in the page's DOM.
      expect(
        await page.evaluate(() => document.querySelectorAll('[data-docs-assistant^="ask-"]').length),
      ).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
    60_000,
  );

  it('has nothing for axe to fix, closed and with an answer', async () => {
    site.page('/axe', docPage(site.origin));
    const { page } = await visit('/axe');
    await page.locator('[data-docs-assistant="launcher"]').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('[data-docs-assistant="launcher"]').click();
    await askInPanel(page, 'How do I install it?');
    expect(await axeViolations(page)).toEqual([]);
  });
});

/** The questions in the conversation (without the visually hidden "You"). */
async function userQuestions(page: Page): Promise<string[]> {
  const texts = await page.locator('[data-docs-assistant="message"][data-role="user"]').allTextContents();
  return texts.map((text) => text.replace(/^You/, ''));
}

/** The page's own elements' computed styles (what the widget's CSS must not change). */
function hostStyles(page: Page) {
  return page.evaluate((properties) => {
    const out: Record<string, Record<string, string>> = {};
    for (const selector of ['html', 'body', 'h1', '#intro', 'pre', '#page-button']) {
      const style = getComputedStyle(document.querySelector(selector)!);
      out[selector] = Object.fromEntries(properties.map((name) => [name, style.getPropertyValue(name)]));
    }
    return out;
  }, PROPERTIES);
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (el: Element) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
    };
    const found = await axe.run(document.querySelector('docs-assistant')!);
    return found.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}
