// @vitest-environment jsdom
/**
 * Reference-style links and footnotes across the blocks an answer is split into: definitions
 * resolve wherever they are in the answer, through the same link policy as inline links, and
 * footnotes are listed once, under ids unique to each answer.
 */
import { render, screen, within } from '@testing-library/react';
import {
  createHrefResolver,
  Markdown,
  MessageParts,
  TextPart,
} from '../../packages/docs-assistant/src/parts';
import { assistantMessage } from './fixtures';

const resolveHref = createHrefResolver('https://docs.acme.dev');

const AUDIT_ANSWER =
  'See [the install guide][1] for details.[^n]\n\n[1]: /guides/install\n\n[^n]: Requires Node 20.';

function footnoteTarget(ref: HTMLElement): HTMLElement | null {
  const href = ref.getAttribute('href') ?? '';
  expect(href.startsWith('#')).toBe(true);
  return document.getElementById(href.slice(1));
}

describe('reference links and footnotes', () => {
  it('resolves a reference link and a footnote whose definitions are in later blocks', () => {
    const { container } = render(<Markdown text={AUDIT_ANSWER} resolveHref={resolveHref} />);
    const link = screen.getByRole('link', { name: 'the install guide' });
    expect(link).toHaveAttribute('href', 'https://docs.acme.dev/guides/install');
    // No raw reference syntax is left, and the definitions themselves show nothing.
    expect(container).not.toHaveTextContent('[');
    expect(container).not.toHaveTextContent('/guides/install');

    const ref = container.querySelector<HTMLElement>('sup a[data-footnote-ref]');
    expect(ref).not.toBeNull();
    expect(ref).toHaveTextContent('1');
    const note = footnoteTarget(ref!);
    expect(note?.tagName).toBe('LI');
    expect(note).toHaveTextContent('Requires Node 20.');
    expect(note!.id.startsWith('user-content-')).toBe(true);
    // The footnote text is shown once, after the answer's text.
    const section = container.querySelector('[data-footnotes]');
    expect(section).toContainElement(note);
    expect(container.textContent!.split('Requires Node 20.')).toHaveLength(2);
    expect(container.textContent!.indexOf('Requires Node 20.')).toBeGreaterThan(
      container.textContent!.indexOf('for details.'),
    );
  });

  it('resolves definitions that come before their use, images included, and shortcut references', () => {
    const text = [
      '[guide]: /guides/config "Configure"',
      '[logo]: https://cdn.acme.dev/logo.png',
      'Read the [guide] and the [Guide][] again.',
      '![Acme logo][logo]',
    ].join('\n\n');
    const { container } = render(
      <Markdown text={text} resolveHref={resolveHref} allowedImageOrigins={['https://cdn.acme.dev']} />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['guide', 'https://docs.acme.dev/guides/config'],
      ['Guide', 'https://docs.acme.dev/guides/config'],
    ]);
    expect(links[0]).toHaveAttribute('title', 'Configure');
    expect(screen.getByRole('img', { name: 'Acme logo' })).toHaveAttribute(
      'src',
      'https://cdn.acme.dev/logo.png',
    );
    expect(container).not.toHaveTextContent('/guides/config');
  });

  it('applies the link policy to definitions: javascript: and data: never become links', () => {
    const text = [
      'Try [this][a], [that][b] and [mail][c].',
      '[a]: javascript:alert(1)',
      '[b]: data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      '[c]: mailto:help@acme.dev',
    ].join('\n\n');
    const { container } = render(<Markdown text={text} resolveHref={resolveHref} />);
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['mailto:help@acme.dev']);
    expect(container).toHaveTextContent('Try this, that and mail.');
    expect(container.querySelector('[href^="javascript"], [href^="data"]')).toBeNull();
  });

  it('keeps footnote ids unique per message: two answers with [^1] link to their own notes', () => {
    const text = (note: string) => `Claim.[^1]\n\n[^1]: ${note}`;
    const { container } = render(
      <>
        <MessageParts
          message={assistantMessage([{ type: 'text', text: text('First note.') }], 'm1')}
          resolveHref={resolveHref}
        />
        <MessageParts
          message={assistantMessage([{ type: 'text', text: text('Second note.') }], 'm2')}
          resolveHref={resolveHref}
        />
      </>,
    );
    const refs = [...container.querySelectorAll<HTMLElement>('a[data-footnote-ref]')];
    expect(refs).toHaveLength(2);
    expect(refs[0]!.getAttribute('href')).not.toBe(refs[1]!.getAttribute('href'));
    expect(footnoteTarget(refs[0]!)).toHaveTextContent('First note.');
    expect(footnoteTarget(refs[1]!)).toHaveTextContent('Second note.');
    const ids = [...container.querySelectorAll('[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('numbers footnotes across the answer and lists each once, with multi-line notes', () => {
    const text = [
      'First claim.[^a]',
      'Second claim.[^b] And the first again.[^a]',
      '[^a]: Note A.',
      '[^b]: Note B starts here\n    and goes on, with a [link](/guides/b).',
    ].join('\n\n');
    const { container } = render(<Markdown text={text} resolveHref={resolveHref} />);
    const refs = [...container.querySelectorAll<HTMLElement>('a[data-footnote-ref]')];
    expect(refs.map((ref) => ref.textContent)).toEqual(['1', '2', '1']);
    expect(refs[0]!.getAttribute('href')).toBe(refs[2]!.getAttribute('href'));
    const items = within(container.querySelector<HTMLElement>('[data-footnotes]')!).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Note A.',
      'Note B starts here\nand goes on, with a link.',
    ]);
    expect(footnoteTarget(refs[1]!)).toBe(items[1]);
    expect(within(items[1]!).getByRole('link', { name: 'link' })).toHaveAttribute(
      'href',
      'https://docs.acme.dev/guides/b',
    );
  });

  it('appends nothing to an unclosed code fence, and brackets in code stay code', () => {
    const text = 'Use [x][1].\n\n[1]: /guides/x\n\n```js\nconst a = arr[1];';
    const { container } = render(<Markdown text={text} resolveHref={resolveHref} />);
    expect(container.querySelector('pre code')?.textContent).toBe('const a = arr[1];');
    expect(screen.getByRole('link', { name: 'x' })).toHaveAttribute('href', 'https://docs.acme.dev/guides/x');
  });

  it('while streaming, takes a link definition once its line is complete', () => {
    const view = (text: string, isStreaming: boolean) => (
      <TextPart
        part={{ type: 'text', text }}
        message={assistantMessage([{ type: 'text', text }])}
        isStreaming={isStreaming}
        resolveHref={resolveHref}
      />
    );
    const { rerender, container } = render(view('Use [x][1].\n\n[1]: /guides/inst', true));
    // Half a URL is not used.
    expect(container.querySelector('a')).toBeNull();
    rerender(view('Use [x][1].\n\n[1]: /guides/install', true));
    expect(container.querySelector('a')).toBeNull();
    // The next block starts: the definition's line is complete.
    rerender(view('Use [x][1].\n\n[1]: /guides/install\n\nMore.', true));
    expect(screen.getByRole('link', { name: 'x' })).toHaveAttribute(
      'href',
      'https://docs.acme.dev/guides/install',
    );
    // An answer that ends on a definition: taken when the stream ends.
    rerender(view('Use [y][2].\n\n[2]: /guides/y', true));
    expect(container.querySelector('a')).toBeNull();
    rerender(view('Use [y][2].\n\n[2]: /guides/y', false));
    expect(screen.getByRole('link', { name: 'y' })).toHaveAttribute('href', 'https://docs.acme.dev/guides/y');
  });

  it('takes no definition from inside code or from the middle of a paragraph', () => {
    const text = [
      'Links: [a][1] and [b][2].',
      '```md\n[1]: /from-code\n```',
      'A paragraph line\n[2]: /from-paragraph',
    ].join('\n\n');
    const { container } = render(<Markdown text={text} resolveHref={resolveHref} />);
    expect(container.querySelector('a')).toBeNull();
    expect(container).toHaveTextContent('Links: [a][1] and [b][2].');
    // Both still show as what they are: code, and paragraph text.
    expect(container.querySelector('pre code')).toHaveTextContent('[1]: /from-code');
    expect(container).toHaveTextContent('A paragraph line [2]: /from-paragraph');
  });

  it('leaves a reference without a definition as the text it was', () => {
    const { container } = render(
      <Markdown text="See [the guide][nope] and [^none]." resolveHref={resolveHref} />,
    );
    expect(container).toHaveTextContent('See [the guide][nope] and [^none].');
    expect(container.querySelector('a, [data-footnotes]')).toBeNull();
  });
});
