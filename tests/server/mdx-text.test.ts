/**
 * MDX to text (`retrieval/markdown.ts`): what a reader sees stays (children of components, inline
 * code, link text, component titles, code inside components as code), what is syntax goes (front
 * matter, ESM, JSX tags and expressions, comments), on nasty inputs and on the MDX fixtures.
 */
import { parse as parseYaml } from 'yaml';
import {
  inlineToText,
  parseDocument,
  parseFrontMatter,
  stripMarkup,
} from '../../packages/docs-assistant-server/src/docs/parse';
import { loadMdxFixtures, proseOf, RAW_MARKUP } from './mdx-fixtures';

const mdx = (body: string) => parseDocument('page.mdx', `# Page\n\n${body}`);
const blocksOf = (body: string) => mdx(body).sections.flatMap((section) => section.blocks);

describe('MDX to text', () => {
  it('drops ESM, one-line and multi-line, and front matter', () => {
    const page = parseDocument(
      'p.mdx',
      [
        '---',
        'title: Hello',
        'icon: rocket',
        '---',
        "import { A, B } from './x'",
        'import {',
        '  C,',
        '  D,',
        "} from './y';",
        'export const meta = {',
        "  tags: ['a', 'b'],",
        '};',
        'export default function Layout({ children }) { return children }',
        '',
        'Text after the ESM.',
      ].join('\n'),
    );
    expect(page.title).toBe('Hello');
    expect(page.sections.flatMap((s) => s.blocks)).toEqual(['Text after the ESM.']);
  });

  it('keeps the text of components and drops their markup, nested or self-closing', () => {
    expect(
      blocksOf(
        [
          '<Note>',
          '  A note with `inline <Code>` and a [link text](/x).',
          '</Note>',
          '',
          '<Tip>One-line tip.</Tip>',
          '',
          '<Frame caption="x">',
          '  <img src="/a.png" alt="A" />',
          '</Frame>',
          '',
          'Text with <Icon icon="check" /> an icon and <Color variant="compact">compact color</Color>.',
        ].join('\n'),
      ),
    ).toEqual([
      'Note: A note with `inline <Code>` and a link text.',
      'Tip: One-line tip.',
      'Text with an icon and compact color.',
    ]);
  });

  it('reads attributes with > inside strings and braces, across lines', () => {
    expect(
      blocksOf(
        [
          '<Card',
          '  title="A > B"',
          "  onClick={() => { if (a > b) alert('}') }}",
          '  style={{ margin: 0 }}',
          '>',
          '  The card body.',
          '</Card>',
        ].join('\n'),
      ),
    ).toEqual(['A > B', 'The card body.']);
  });

  it('keeps the titles of tabs, accordions and cards, and names of fields', () => {
    expect(
      blocksOf(
        [
          '<Tabs>',
          '  <Tab title="npm">Use npm.</Tab>',
          '  <Tab title="pnpm">Use pnpm.</Tab>',
          '</Tabs>',
          '',
          '<Accordion title="Why slow?">Big images.</Accordion>',
          '',
          '<ParamField path="projectId" type="string">The id.</ParamField>',
        ].join('\n'),
      ),
    ).toEqual(['npm', 'Use npm.', 'pnpm', 'Use pnpm.', 'Why slow?', 'Big images.', 'projectId', 'The id.']);
  });

  it('keeps code inside components as code, dedented, and leaves code spans and fences untouched', () => {
    const page = mdx(
      [
        '<CodeGroup>',
        '  ```js index.js',
        '  const a = <Card title="x" />;',
        '  if (a) {',
        '    run({ b });',
        '  }',
        '  ```',
        '</CodeGroup>',
        '',
        'Use `{ braces }` and `<Tags>` in code spans.',
      ].join('\n'),
    );
    expect(page.sections[0]?.code).toEqual([
      { lang: 'js', code: 'const a = <Card title="x" />;\nif (a) {\n  run({ b });\n}' },
    ]);
    expect(page.sections[0]?.blocks).toEqual(['Use `{ braces }` and `<Tags>` in code spans.']);
  });

  it('drops JSX expressions and comments, open ones too', () => {
    expect(
      blocksOf(
        [
          '{/* a comment */}',
          // `\u0024` is `$`: a template literal inside the MDX expression.
          'Hello {user.name}, you have {`\u0024{count} new`} items.',
          '',
          'An open expression {oops',
          '',
          'The next paragraph is read.',
        ].join('\n'),
      ),
    ).toEqual(['Hello , you have items.', 'An open expression', 'The next paragraph is read.']);
  });

  it('drops a tag left open up to the end of its line, and reads on', () => {
    expect(
      blocksOf(['<Card title="Broken" href="/x"', 'Text after it.', '', '<Warning>', 'Kept.'].join('\n')),
    ).toEqual(['Text after it.', 'Warning: Kept.']);
  });

  it('keeps components inside list items as part of the item', () => {
    expect(
      blocksOf(
        [
          '- Create a webhook <Badge color="green">beta</Badge> here.',
          '- Choose one:',
          '  <Tabs>',
          '    <Tab title="Orders">Order events.</Tab>',
          '  </Tabs>',
        ].join('\n'),
      ),
    ).toEqual(['Create a webhook beta here.', 'Choose one:', 'Orders', 'Order events.']);
  });

  it('reads <Steps> and numbered lists as steps, with their titles and code', () => {
    const page = mdx(
      [
        '## Rotate the secret',
        '',
        '<Steps>',
        '  <Step title="Create a secret">',
        '    Click **Rotate**.',
        '  </Step>',
        '  <Step title="Deploy it">',
        '    Set `SECRET`:',
        '',
        '    ```bash',
        '    export SECRET=new',
        '    ```',
        '  </Step>',
        '  <Step title="Revoke the old one" />',
        '</Steps>',
        '',
        '## Install',
        '',
        '1. Install it:',
        '',
        '   ```bash',
        '   npm i acme',
        '   ```',
        '',
        '2. Sign in.',
        '<Warning>Not with sudo.</Warning>',
      ].join('\n'),
    );
    const [rotate, install] = page.sections;
    expect(rotate?.steps).toEqual([
      [
        { title: 'Create a secret', text: 'Click Rotate.', code: [] },
        { title: 'Deploy it', text: 'Set `SECRET`:', code: [{ lang: 'bash', code: 'export SECRET=new' }] },
        { title: 'Revoke the old one', text: '', code: [] },
      ],
    ]);
    // The code block follows the paragraph that introduces it.
    expect(rotate?.blocks[rotate.codeAfter![0]!]).toBe('Set `SECRET`:');
    // A component at the left margin ends the numbered list.
    expect(install?.steps).toEqual([
      [
        { text: 'Install it:', code: [{ lang: 'bash', code: 'npm i acme' }] },
        { text: 'Sign in.', code: [] },
      ],
    ]);
  });

  it('leaves Markdown files alone where MDX would read syntax: braces and import lines stay', () => {
    const page = parseDocument('p.md', '# P\n\nimport the data with {braces} as written.\n');
    expect(page.sections[0]?.blocks).toEqual(['import the data with {braces} as written.']);
  });

  it('keeps autolinks, escapes and plain < in prose', () => {
    expect(inlineToText('See <https://example.com/a> or write a < b and \\<Tag>.')).toBe(
      'See https://example.com/a or write a < b and <Tag>.',
    );
    expect(stripMarkup('Mail <team@example.com> now.', true)).toBe('Mail <team@example.com> now.');
  });

  it('reads front matter as YAML does, flat key: string lines by a faster path', () => {
    const cases = [
      'title: Hello\ndescription: A page. With stops.',
      'title: "Quoted: yes"',
      "title: 'It''s'",
      'title: 12',
      'draft: true',
      'version: 1.0',
      'version: 2.x',
      'title: x # a comment',
      'title: -x',
      'title: [a, b]',
      'title: Café – naïve',
      'title: http://example.com/a',
      'title: ~',
      'tags:\n  - a\n  - b',
    ];
    for (const yaml of cases) {
      expect(parseFrontMatter(`---\n${yaml}\n---\nBody`).data, yaml).toEqual(parseYaml(yaml));
    }
    for (const broken of ['title: a: b', 'a: b\na: c', 'title: Ends with colon:']) {
      expect(parseFrontMatter(`---\n${broken}\n---\nBody`).error, broken).toBeDefined();
    }
  });

  it('emits no raw markup anywhere in the MDX fixtures', () => {
    const pages = loadMdxFixtures();
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const found: string[] = [];
    for (const section of pages.flatMap((page) => page.sections)) {
      for (const text of proseOf(section)) {
        for (const [what, pattern] of RAW_MARKUP) {
          // Inline code may name a tag (`<Steps>`): the fixtures' code spans are listed here.
          const bare = text.replace(/<Steps>|<Card title="not a tag, code">/g, '');
          if (pattern.test(bare)) found.push(`${section.id}: ${what} in "${text}"`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
