import { createSlugger } from '../../packages/docs-assistant-server/src/docs/slugs';
import {
  composeExtractiveAnswer,
  sentences,
} from '../../packages/docs-assistant-server/src/engines/extractive';
import { searchOutput } from '../../packages/docs-assistant-server/src/engines/sources';
import type { AnswerContext } from '../../packages/docs-assistant-server/src/engines/types';
import {
  DocsIndex,
  inlineToText,
  loadDocs,
  normalizePath,
  pagePathFromFile,
  parseDocument,
  type RetrievalQuery,
  tableCells,
} from '../../packages/docs-assistant-server/src/retrieval';
import { FIXTURE_DOCS } from './helpers';

let index: DocsIndex;
beforeAll(async () => {
  index = new DocsIndex(await loadDocs([FIXTURE_DOCS], { warn: () => {} }));
});

const query = (question: string, extra: Partial<RetrievalQuery> = {}) =>
  index.query({ question, limit: 5, ...extra });

describe('reading docs', () => {
  it('maps file paths to page paths', () => {
    expect(pagePathFromFile('guides/theming.md')).toBe('/guides/theming');
    expect(pagePathFromFile('index.md')).toBe('/');
    expect(pagePathFromFile('guides/index.mdx')).toBe('/guides');
  });

  it('makes GitHub-style anchors, numbering repeats', () => {
    const slug = createSlugger('folder');
    expect(slug('Turning dark mode off')).toBe('turning-dark-mode-off');
    expect(slug('The theme prop: dark & light!')).toBe('the-theme-prop-dark--light');
    const page = parseDocument('a.md', '# A\n\n## Setup\n\none\n\n## Setup\n\ntwo\n');
    expect(page.sections.map((s) => s.anchor)).toEqual(['setup', 'setup-1']);
  });

  it('reads front matter, heading paths and code, and strips MDX syntax', async () => {
    const pages = await loadDocs([FIXTURE_DOCS], { warn: () => {} });
    const auth = pages.find((p) => p.path === '/reference/authentication')!;
    expect(auth).toMatchObject({
      title: 'Authentication',
      version: '2',
      file: 'reference/authentication.mdx',
    });
    const text = auth.sections.flatMap((s) => s.blocks).join('\n');
    expect(text).toContain('Never put a secret key in browser code.');
    expect(text).not.toMatch(/import|export const|<Callout|security team/);

    const theming = pages.find((p) => p.path === '/guides/theming')!;
    expect(theming.sections.find((s) => s.anchor === 'turning-dark-mode-off')?.headingPath).toEqual([
      'Dark mode',
      'Turning dark mode off',
    ]);
    const start = pages.find((p) => p.path === '/getting-started')!;
    expect(start.sections.find((s) => s.anchor === 'installation')?.code).toEqual([
      { lang: 'bash', code: 'npm install acme-widgets' },
    ]);
    expect(pages.find((p) => p.path === '/fr/theming')?.language).toBe('fr');
  });

  it('keeps table rows apart from prose, with escaped pipes intact', () => {
    const page = parseDocument(
      't.md',
      "# T\n\n## Props\n\nThe props:\n\n| Prop | Type |\n| --- | --- |\n| `theme` | `'light' \\| 'dark'` |\n",
    );
    expect(page.sections[0]?.blocks).toEqual(['The props:']);
    expect(page.sections[0]?.rows).toEqual(['Prop — Type', "`theme` — `'light' | 'dark'`"]);
  });

  it('keeps inline code verbatim: tags, pipes and underscores inside backticks stay', () => {
    expect(inlineToText('Render `<DocsAssistant>` once, not <b>twice</b>.')).toBe(
      'Render <DocsAssistant> once, not twice.',
    );
    expect(inlineToText('`Promise<void>` and ``a `tick` b`` and `_private_`')).toBe(
      'Promise<void> and a `tick` b and _private_',
    );
    // Outside code the usual marks go, and backslash escapes keep their character.
    expect(inlineToText('**Bold**, _em_, [a `link`](/x) and \\*stars\\*')).toBe(
      'Bold, em, a link and *stars*',
    );
    const page = parseDocument(
      'c.md',
      '# C\n\n## Use `<DocsAssistant>`\n\nPut `<DocsAssistant domain="acme" />` in the layout.\n',
    );
    expect(page.sections[0]?.blocks).toEqual(['Put `<DocsAssistant domain="acme" />` in the layout.']);
    expect(page.sections[0]?.headingPath).toEqual(['Use <DocsAssistant>']);
    // GitHub drops the brackets from the slug but keeps the name.
    expect(page.sections[0]?.anchor).toBe('use-docsassistant');
  });

  it('splits table rows on cell borders only, not on escaped pipes', () => {
    expect(tableCells("| `theme` | `'light' \\| 'dark' \\| 'system'` | yes |")).toEqual([
      '`theme`',
      "`'light' | 'dark' | 'system'`",
      'yes',
    ]);
    // An escaped backslash before a pipe leaves the pipe a border.
    expect(tableCells('| a \\\\| b |')).toEqual(['a \\\\', 'b']);
    expect(tableCells('a | b')).toEqual(['a', 'b']);
    const page = parseDocument(
      't.md',
      "# T\n\n| Field | Type |\n|---|---|\n| `resolveHref` | `(href: string) => string \\| null` |\n| `kind` | `'config' \\| 'auth'` |\n",
    );
    expect(page.sections[0]?.rows).toEqual([
      'Field — Type',
      '`resolveHref` — `(href: string) => string | null`',
      "`kind` — `'config' | 'auth'`",
    ]);
  });

  it('reads a page whose front matter is broken, without it', () => {
    const page = parseDocument('x.md', '---\ntitle: [unclosed\n---\n# Real title\n\nBody text.\n');
    expect(page.title).toBe('Real title');
    expect(page.sections[0]?.blocks).toEqual(['Body text.']);
  });
});

describe('retrieval', () => {
  it('finds the section that answers the question', () => {
    const result = query('How do I change the accent color?');
    expect(result.hits[0]?.section.id).toBe('/guides/theming#accent-color');
    expect(result.confident).toBe(true);
  });

  it('honours filter.version: other versions are left out, unversioned pages stay', () => {
    const v1 = query('API keys header token', { filter: { version: '1' } });
    const paths = v1.hits.map((hit) => hit.section.pagePath);
    expect(paths).toContain('/reference/authentication-v1');
    expect(paths).not.toContain('/reference/authentication');
    const v2 = query('API keys header token', { filter: { version: '2' } });
    expect(v2.hits.map((hit) => hit.section.pagePath)).not.toContain('/reference/authentication-v1');
  });

  it('honours filter.language', () => {
    const fr = query('mode sombre theme', { filter: { language: 'fr' } });
    expect(fr.hits.map((hit) => hit.section.pagePath)).toContain('/fr/theming');
    const en = query('mode sombre theme', { filter: { language: 'en' } });
    expect(en.hits.map((hit) => hit.section.pagePath)).not.toContain('/fr/theming');
  });

  it('boosts the page the reader is on', () => {
    const question = 'How do I turn it off?';
    const plain = query(question);
    expect(plain.hits[0]?.section.pagePath).toBe('/guides/notifications');
    const onTheming = query(question, { currentPath: '/docs/guides/theming/' });
    expect(onTheming.hits[0]?.section.pagePath).toBe('/guides/theming');
    expect(normalizePath('/docs/guides/theming/?tab=1#x')).toBe('/docs/guides/theming');
  });

  it('folds context items into the query, below the question', () => {
    const question = 'What does this do?';
    const withContext = query(question, {
      context: [{ type: 'code', value: '<Widget theme="dark" />', path: '/guides/theming' }],
    });
    expect(withContext.hits[0]?.section.pagePath).toBe('/guides/theming');
    // The question still wins over context when it is specific.
    const specific = query('How do I install the package with npm?', {
      context: [{ type: 'textSelection', value: 'dark mode accent color' }],
    });
    expect(specific.hits[0]?.section.id).toBe('/getting-started#installation');
  });

  it('folds earlier questions of the thread in, below the question', () => {
    const followUp = query('How do I turn it off?', { history: ['How do I enable dark mode?'] });
    expect(followUp.hits[0]?.section.id).toBe('/guides/theming#turning-dark-mode-off');
  });

  it('is not confident when the docs do not talk about the question', () => {
    expect(query('How do I bake sourdough bread?').confident).toBe(false);
    expect(query('What is the airspeed velocity of an unladen swallow?').confident).toBe(false);
  });

  it('returns at most retrievalPageSize hits, at most two per page', () => {
    const result = query('dark mode theme light', { limit: 3 });
    expect(result.hits.length).toBeLessThanOrEqual(3);
    const perPage = new Map<string, number>();
    for (const hit of query('theme dark mode light color accent', { limit: 10 }).hits) {
      perPage.set(hit.section.pagePath, (perPage.get(hit.section.pagePath) ?? 0) + 1);
    }
    expect(Math.max(...perPage.values())).toBeLessThanOrEqual(2);
  });
});

describe('extractive answers', () => {
  const contextFor = (question: string, extra: Partial<RetrievalQuery> = {}): AnswerContext => {
    const retrieval = query(question, extra);
    const { results, sources } = searchOutput(retrieval.hits, (path) => path);
    return {
      question,
      messages: [],
      history: [],
      context: [],
      retrieval,
      results,
      sources,
      related: [],
      index,
      siteTitle: 'Acme Widgets',
      urlFor: (path) => path,
      messageId: 'msg_1',
    };
  };

  it('quotes the best passage with citations matching the sources, and suggests related pages', () => {
    const answer = composeExtractiveAnswer(contextFor('How do I install it?'));
    expect(answer.text).toMatch(/^Install the package with npm\./);
    expect(answer.text).toContain('[1]');
    expect(answer.cited[0]?.path).toBe('/getting-started');
    expect(answer.text).toContain('```bash\nnpm install acme-widgets\n```');
    const suggestions = /```suggestions\n([\s\S]*?)\n```$/.exec(answer.text)?.[1]?.split('\n') ?? [];
    expect(suggestions.length).toBeGreaterThan(0);
    for (const line of suggestions) expect(line).toMatch(/^\([^()]+\)\[\/[^\]]*\]$/);
    expect(suggestions.join('\n')).not.toContain('(/getting-started)');
    // Suggestions are pages, titled as pages (sources are sections, titled "Page › Heading").
    for (const line of suggestions) {
      const [, title, path] = /^\((.*)\)\[(.*)\]$/.exec(line)!;
      expect(title).toBe(index.page(path!)?.title);
    }
    expect(answer.text).not.toMatch(/Related pages/i);
  });

  it('splits sentences but keeps a quotation with a full stop whole', () => {
    expect(
      sentences(
        'Over the limit, it answers 429. The widget shows "Too many requests. Try later." Then it waits.',
      ),
    ).toEqual([
      'Over the limit, it answers 429.',
      'The widget shows "Too many requests. Try later."',
      'Then it waits.',
    ]);
  });

  it('is deterministic', () => {
    const a = composeExtractiveAnswer(contextFor('How do I enable dark mode?'));
    const b = composeExtractiveAnswer(contextFor('How do I enable dark mode?'));
    expect(a).toEqual(b);
  });

  it('says plainly when the docs have nothing on the question, and suggests pages', () => {
    const answer = composeExtractiveAnswer(contextFor('How do I bake sourdough bread?'));
    expect(answer.text).toMatch(/^The Acme Widgets docs don't cover that/);
    expect(answer.cited).toEqual([]);
    expect(answer.text).toMatch(/```suggestions\n\(Acme Widgets\)\[\/\]/);
  });
});
