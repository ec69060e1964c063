/**
 * The real service over HTTP on each docs-site fixture (issue 17): every question's page among
 * the five sources at least as often as plain BM25 finds its file, no English question with a
 * source or suggested page in another language, every source and suggestion a URL the site's
 * navigation publishes; the reader's filter, page and question language choose the pages, and an
 * answer says so when it had to leave the reader's language.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV1 } from 'ai/test';
import { runCli } from '../../packages/docs-assistant-server/src/cli';
import { createOpenAIEngine } from '../../packages/docs-assistant-server/src/engines/openai';
import { normalizePath } from '../../packages/docs-assistant-server/src/retrieval';
import { authHeaders, DOMAIN, startService } from './helpers';
import { askOverHttp, CORPORA, type CorpusRun, corpusDir, figures, runCorpus } from './sites-corpora';

describe.each(CORPORA)('%s site over HTTP', (corpus) => {
  let run: CorpusRun;
  beforeAll(async () => {
    run = await runCorpus(corpus);
  });

  it('finds the expected page in the top 5 at least as often as plain BM25 finds its file', () => {
    const result = figures(run);
    const misses = run.asked
      .filter((q) => q.rank === 0)
      .map((q) => `${q.question} → ${q.results.join(', ')}`);
    expect(result.hitAt5, misses.join('\n')).toBeGreaterThanOrEqual(result.bm25HitAt5);
    expect(result.hitAt1).toBeGreaterThanOrEqual(result.bm25HitAt1);
  });

  it('never gives an English question a source or a suggested page in another language', () => {
    const languageOf = new Map(run.pages.map((page) => [page.path, page.language]));
    for (const q of run.asked.filter((asked) => asked.language === 'en')) {
      const foreign = [...q.results, ...q.suggestions].filter((path) => languageOf.get(path) !== 'en');
      expect(foreign, q.question).toEqual([]);
    }
    expect(figures(run).mixed).toBe(0);
  });

  it('links only URLs the navigation publishes, never a repository file', () => {
    const published = new Set(run.pages.map((page) => page.path));
    for (const q of run.asked) {
      for (const url of q.urls) expect(published.has(normalizePath(url.split('#')[0]!)), url).toBe(true);
      for (const link of q.suggestions) expect(published.has(link), link).toBe(true);
      expect(q.text).not.toMatch(/README|CONTRIBUTING|AGENTS/);
    }
  });
});

describe('language and version follow the reader (Mintlify fixture over HTTP)', () => {
  const docs = corpusDir('mintlify');

  it('honours filter.language exactly, and the language of the page the reader is on', async () => {
    const running = await startService({ docs });
    onTestFinished(() => running.close());
    const filtered = await askOverHttp(running, 'How do I set up a custom domain?', {
      filter: { language: 'fr' },
    });
    expect(filtered.results.length).toBeGreaterThan(0);
    for (const path of [...filtered.results, ...filtered.suggestions]) expect(path).toMatch(/^\/fr\//);

    const onFrenchPage = await askOverHttp(running, 'custom domain CNAME', {
      currentPath: '/fr/introduction',
    });
    expect(onFrenchPage.results[0]).toBe('/fr/guides/custom-domain');
    for (const path of onFrenchPage.results) expect(path).toMatch(/^\/fr\//);

    // A filter for a language the docs do not have finds nothing rather than another language.
    const none = await askOverHttp(running, 'How do I set up a custom domain?', {
      filter: { language: 'de' },
    });
    expect(none.results).toEqual([]);
  });

  it('answers from the default version unless the filter or the reader’s page names another', async () => {
    const running = await startService({ docs });
    onTestFinished(() => running.close());
    const latest = await askOverHttp(running, 'Which header carries the API key?');
    expect(latest.results[0]).toBe('/api/api-keys');
    expect(latest.results).not.toContain('/v1/api/api-keys');

    const v1 = await askOverHttp(running, 'Which header carries the API key?', { filter: { version: 'v1' } });
    expect(v1.results[0]).toBe('/v1/api/api-keys');
    expect(v1.results).not.toContain('/api/api-keys');

    const onV1Page = await askOverHttp(running, 'How many requests per minute?', {
      currentPath: '/v1/api/api-keys',
    });
    expect(onV1Page.results[0]).toBe('/v1/api/rate-limits');
  });

  it('falls back to other languages only when no page in the reader’s language matches, and says so', async () => {
    const running = await startService({ docs });
    onTestFinished(() => running.close());
    // No French page covers webhook signatures: the English page answers, with a notice.
    const answer = await askOverHttp(running, "Comment vérifier la signature HMAC d'un webhook ?");
    expect(answer.results[0]).toBe('/guides/webhooks');
    expect(answer.text).toMatch(/No page in French answers this/);
    // A French question a French page answers has French sources and no notice.
    const french = await askOverHttp(running, 'Comment configurer un domaine personnalisé ?');
    expect(french.results[0]).toBe('/fr/guides/custom-domain');
    expect(french.text).not.toMatch(/No page in/);
  });
});

describe('the search endpoint follows the reader like the assistant (Mintlify fixture)', () => {
  const search = async (running: { url: string }, body: Record<string, unknown>) => {
    const response = await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
      method: 'POST',
      headers: { ...authHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { path: string }[]).map((item) =>
      normalizePath(item.path.split('#')[0]!),
    );
  };

  it('keeps an English query to English pages and a French one to French pages, unless filtered', async () => {
    const running = await startService({ docs: corpusDir('mintlify') });
    onTestFinished(() => running.close());
    const english = await search(running, { query: 'How do I set up a custom domain?' });
    expect(english[0]).toBe('/guides/custom-domain');
    for (const path of english) expect(path).not.toMatch(/^\/(fr|es)\//);
    const french = await search(running, { query: 'Comment configurer un domaine personnalisé ?' });
    expect(french[0]).toBe('/fr/guides/custom-domain');
    for (const path of french) expect(path).toMatch(/^\/fr\//);
    const filtered = await search(running, { query: 'custom domain', filter: { language: 'fr' } });
    for (const path of filtered) expect(path).toMatch(/^\/fr\//);
  });
});

describe('hidden pages over HTTP', () => {
  it('are never sources by default, and are when the service is told to index them', async () => {
    const question = 'Is vector search available for my project?';
    const plain = await startService({ docs: corpusDir('mintlify') });
    onTestFinished(() => plain.close());
    expect((await askOverHttp(plain, question)).results).not.toContain('/beta/vector-search');

    const included = await startService({ docs: corpusDir('mintlify'), site: { hiddenPages: 'include' } });
    onTestFinished(() => included.close());
    expect((await askOverHttp(included, question)).results[0]).toBe('/beta/vector-search');
  });
});

describe('the openai engine and the reader’s language', () => {
  it('is told to say first that the passages are in another language', async () => {
    const prompts: string[] = [];
    const model = new MockLanguageModelV1({
      doStream: async (options) => {
        prompts.push(JSON.stringify(options.prompt));
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-delta' as const, textDelta: 'Voir [1].' },
              {
                type: 'finish' as const,
                finishReason: 'stop' as const,
                usage: { promptTokens: 1, completionTokens: 1 },
              },
            ],
            initialDelayInMs: null,
            chunkDelayInMs: null,
          }),
          rawCall: { rawPrompt: null, rawSettings: {} },
        };
      },
    });
    const running = await startService({
      docs: corpusDir('mintlify'),
      engine: createOpenAIEngine({ model }),
    });
    onTestFinished(() => running.close());
    const crossed = await askOverHttp(running, "Comment vérifier la signature HMAC d'un webhook ?");
    expect(crossed.results[0]).toBe('/guides/webhooks');
    expect(prompts[0]).toMatch(/Say first, in the reader's language: No page in French answers this/);
    await askOverHttp(running, 'Comment configurer un domaine personnalisé ?');
    expect(prompts[1]).not.toMatch(/Say first/);
  });
});

describe('docs-assistant serve on a docs site', () => {
  it('prints what it made of the site: framework, pages per language and version, skipped files', async () => {
    let child: ChildProcess | undefined;
    onTestFinished(() => {
      child?.kill('SIGTERM');
    });
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/docs-assistant-server/src/cli.ts',
        'serve',
        '--docs',
        corpusDir('docusaurus'),
        '--port',
        '0',
        '--hidden-pages',
        'include',
      ],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = await new Promise<string>((resolve, reject) => {
      let text = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        // The report's last line for this site names the skipped files.
        if (/skipped \d+ files:[\s\S]*blog post/.test(text)) resolve(text);
      });
      child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
    });
    expect(output).toMatch(/docusaurus site \(docusaurus\.config\.ts\), 18 pages \(1 hidden, searchable\)/);
    expect(output).toMatch(/pages by language\/version: en 2\.x: 9, fr 2\.x: 4, es 2\.x: 3, en 1\.x: 2/);
    expect(output).toMatch(/draft: true .*docs\/guides\/pricing\.md/);
  });

  it('refuses an unknown --hidden-pages mode, saying which are valid', async () => {
    const err: string[] = [];
    const code = await runCli(['serve', '--hidden-pages', 'some'], {
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(code).not.toBe(0);
    expect(err.join('\n')).toMatch(/--hidden-pages must be "exclude" or "include" \(got "some"\)/);
  });
});
