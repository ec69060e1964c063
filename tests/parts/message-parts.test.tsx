// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import {
  createHrefResolver,
  MessageParts,
  type PartComponents,
  type ToolInvocationProps,
} from '../../packages/docs-assistant/src/parts';
import { assistantMessage, searchCall, searchResult, type UIPart } from './fixtures';

const resolveHref = createHrefResolver('https://docs.acme.dev');

function renderParts(parts: UIPart[], options: { isStreaming?: boolean; components?: PartComponents } = {}) {
  return render(
    <MessageParts
      message={assistantMessage(parts)}
      isStreaming={options.isStreaming ?? false}
      components={options.components}
      resolveHref={resolveHref}
    />,
  );
}

function MySearch({ toolInvocation }: ToolInvocationProps) {
  return <span data-testid="my-search">search {toolInvocation.state}</span>;
}
function MyFallback({ toolInvocation }: ToolInvocationProps) {
  return <span data-testid="my-fallback">{toolInvocation.toolName}</span>;
}

const partsOfType = (container: HTMLElement, type: string) =>
  container.querySelectorAll(`[data-docs-assistant="part"][data-part-type="${type}"]`);

describe('MessageParts', () => {
  it('wraps each part type in its DOM hook', () => {
    const { container } = renderParts([
      { type: 'step-start' },
      { type: 'reasoning', reasoning: 'Look it up.', details: [{ type: 'text', text: 'Look it up.' }] },
      searchResult('install', [{ url: '/guides/install', title: 'Install' }]),
      { type: 'step-start' },
      { type: 'text', text: 'Run **npm i**.' },
      { type: 'file', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'file', mimeType: 'application/pdf', data: 'JVBERi0=' },
      { type: 'source', source: { sourceType: 'url', id: 's1', url: '/guides/cli', title: 'CLI' } },
    ]);
    expect(partsOfType(container, 'text')).toHaveLength(1);
    expect(partsOfType(container, 'text')[0]!.querySelector('strong')).toHaveTextContent('npm i');
    expect(partsOfType(container, 'reasoning')).toHaveLength(1);
    const tool = partsOfType(container, 'tool-invocation');
    expect(tool).toHaveLength(1);
    expect(tool[0]).toHaveAttribute('data-tool-name', 'search');
    expect(tool[0]).toHaveAttribute('data-tool-state', 'result');
    expect(partsOfType(container, 'file')).toHaveLength(2);
    // Source parts show up once, as the message's source list after the other parts.
    const sources = partsOfType(container, 'source');
    expect(sources).toHaveLength(1);
    expect(container.lastElementChild).toBe(sources[0]);
    // step-start renders nothing.
    expect(container.querySelectorAll('[data-docs-assistant="part"]')).toHaveLength(6);
  });

  it('renders raster images inline from a data URL; never a data: link, SVG or HTML', () => {
    const { container } = renderParts([
      { type: 'file', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'file', mimeType: 'IMAGE/WEBP', data: 'UklGRg==' },
      { type: 'file', mimeType: 'image/svg+xml', data: 'PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+' },
      { type: 'file', mimeType: 'text/html', data: 'PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==' },
      { type: 'file', mimeType: 'application/pdf', data: 'JVBERi0=' },
      { type: 'file', mimeType: 'text/html;charset=x" onerror="y', data: 'PGI+' },
    ]);
    const images = screen.getAllByRole('img');
    expect(images.map((image) => image.getAttribute('src'))).toEqual([
      'data:image/png;base64,iVBORw0KGgo=',
      'data:image/webp;base64,UklGRg==',
    ]);
    expect(images[0]!.getAttribute('alt')).toMatch(/image\/png/);
    // No link at all: not to the SVG, the HTML or the PDF.
    expect(container.querySelector('a')).toBeNull();
    expect(
      container.querySelector('[href^="data:"], [src^="data:image/svg"], [src^="data:text"]'),
    ).toBeNull();
    // Other files show their media type as text; a media type that is not one shows as octet-stream.
    const files = [...container.querySelectorAll('span[data-file]')];
    expect(files.map((file) => file.getAttribute('data-media-type'))).toEqual([
      'image/svg+xml',
      'text/html',
      'application/pdf',
      'application/octet-stream',
    ]);
    expect(files[2]).toHaveTextContent('application/pdf');
    expect(container.querySelector('[onerror]')).toBeNull();
  });

  describe('sources', () => {
    it('gathers source parts and both search result shapes, resolves, de-duplicates and numbers them', () => {
      renderParts([
        searchResult('install', [
          { url: 'https://docs.acme.dev/guides/install', title: 'Install' },
          { path: '/guides/config', metadata: { title: 'Configure' } },
          { url: 'javascript:alert(1)', title: 'Evil' },
        ]),
        searchResult(
          'export',
          { results: [{ path: '/guides/install' }, { path: '/guides/export', title: 'Export' }] },
          'call-2',
        ),
        {
          type: 'source',
          source: { sourceType: 'url', id: 's1', url: 'https://example.com/blog', title: 'Blog' },
        },
        { type: 'source', source: { sourceType: 'url', id: 's2', url: '/guides/config' } },
        { type: 'text', text: 'Answer.' },
      ]);
      // A list named by its heading, not a landmark: every answer has one (axe landmark-unique).
      const list = screen.getByRole('list', { name: 'Sources' });
      const items = within(list).getAllByRole('listitem');
      expect(items.map((li) => li.getAttribute('value'))).toEqual(['1', '2', '3', '4']);
      const links = within(list).getAllByRole('link');
      expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
        ['Install', 'https://docs.acme.dev/guides/install'],
        ['Configure', 'https://docs.acme.dev/guides/config'],
        ['Export', 'https://docs.acme.dev/guides/export'],
        ['Blog', 'https://example.com/blog'],
      ]);
      for (const link of links) expect(link).toHaveAttribute('data-docs-assistant', 'source');
      expect(links[3]).toHaveAttribute('target', '_blank');
      expect(links[0]).not.toHaveAttribute('target');
      expect(list.tagName).toBe('OL');
    });

    it('shows no source list when there are none', () => {
      const { container } = renderParts([{ type: 'text', text: 'No sources.' }]);
      expect(partsOfType(container, 'source')).toHaveLength(0);
    });
  });

  describe('reasoning', () => {
    const reasoning = (text: string): UIPart => ({
      type: 'reasoning',
      reasoning: text,
      details: [
        { type: 'text', text },
        { type: 'redacted', data: 'opaque' },
      ],
    });

    it('is open while it streams and closes once done', () => {
      const { rerender } = renderParts([reasoning('Thinking about it')], { isStreaming: true });
      const toggle = screen.getByRole('button', { name: 'Thinking…' });
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByText('Thinking about it')).toBeVisible();
      expect(screen.getByText('[redacted]')).toBeInTheDocument();

      rerender(
        <MessageParts
          message={assistantMessage([reasoning('Thinking about it'), { type: 'text', text: 'Answer' }])}
          isStreaming
          resolveHref={resolveHref}
        />,
      );
      const done = screen.getByRole('button', { name: 'Reasoning' });
      expect(done).toHaveAttribute('aria-expanded', 'false');
      expect(screen.getByText('Thinking about it')).not.toBeVisible();

      fireEvent.click(done);
      expect(done).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByText('Thinking about it')).toBeVisible();
    });

    it('stays open after streaming when the reader opened it', () => {
      const { rerender } = renderParts([reasoning('Step one')], { isStreaming: true });
      const toggle = screen.getByRole('button', { name: 'Thinking…' });
      fireEvent.click(toggle); // closes
      fireEvent.click(toggle); // opens again: the reader's choice
      rerender(
        <MessageParts
          message={assistantMessage([reasoning('Step one')])}
          isStreaming={false}
          resolveHref={resolveHref}
        />,
      );
      expect(screen.getByRole('button', { name: 'Reasoning' })).toHaveAttribute('aria-expanded', 'true');
    });
  });

  describe('tool invocations', () => {
    it('shows the search in progress, tolerating partial args', () => {
      const { container, rerender } = renderParts([searchCall('partial-call', undefined)], {
        isStreaming: true,
      });
      const part = partsOfType(container, 'tool-invocation')[0]!;
      expect(part).toHaveAttribute('data-tool-state', 'partial-call');
      expect(part).toHaveTextContent('Calling search…');

      rerender(
        <MessageParts
          message={assistantMessage([searchCall('partial-call', { query: 'inst' })])}
          isStreaming
          resolveHref={resolveHref}
        />,
      );
      expect(part).toHaveTextContent('Searching the docs for “inst”…');

      rerender(
        <MessageParts
          message={assistantMessage([searchCall('call', { query: 'install' })])}
          isStreaming
          resolveHref={resolveHref}
        />,
      );
      expect(partsOfType(container, 'tool-invocation')[0]).toHaveAttribute('data-tool-state', 'call');
      expect(partsOfType(container, 'tool-invocation')[0]).toHaveTextContent(
        'Searching the docs for “install”…',
      );
    });

    it('shows the search result with its number of results', () => {
      const { container } = renderParts([
        searchResult('install', {
          results: [
            { path: '/a', title: 'A' },
            { path: '/b', title: 'B' },
          ],
        }),
      ]);
      const part = partsOfType(container, 'tool-invocation')[0]!;
      expect(part).toHaveTextContent('Searched the docs for “install”');
      expect(part).toHaveTextContent('2 results');
    });

    it('shows other tools by name, with their args and result as text in a collapsible', () => {
      const { container } = renderParts([
        {
          type: 'tool-invocation',
          toolInvocation: { state: 'call', toolCallId: 'w1', toolName: 'weather', args: { city: 'Oslo' } },
        },
        {
          type: 'tool-invocation',
          toolInvocation: {
            state: 'result',
            toolCallId: 'w2',
            toolName: 'weather',
            args: { city: '<img src=x onerror=alert(1)>' },
            result: { html: '<script>alert(1)</script>' },
          },
        },
      ]);
      const [call, result] = partsOfType(container, 'tool-invocation');
      expect(call).toHaveTextContent('Calling weather…');
      expect(result).toHaveTextContent('Called weather');
      const details = result!.querySelector('details')!;
      expect(details.open).toBe(false);
      expect(details.querySelector('pre')).toHaveTextContent('"html": "<script>alert(1)</script>"');
      expect(container.querySelector('script')).toBeNull();
      expect(container.querySelector('img')).toBeNull();
    });
  });

  describe('components overrides', () => {
    const parts: UIPart[] = [
      searchResult('x', []),
      {
        type: 'tool-invocation',
        toolInvocation: { state: 'call', toolCallId: 't', toolName: 'other', args: {} },
      },
      { type: 'text', text: 'Hello **world**' },
      { type: 'reasoning', reasoning: 'hmm', details: [] },
    ];

    it('uses byName, then fallback, and keeps the other defaults', () => {
      const { container } = renderParts(parts, {
        components: { toolInvocation: { byName: { search: MySearch }, fallback: MyFallback } },
      });
      expect(screen.getByTestId('my-search')).toHaveTextContent('search result');
      expect(screen.getByTestId('my-fallback')).toHaveTextContent('other');
      expect(partsOfType(container, 'text')[0]!.querySelector('strong')).toHaveTextContent('world');
    });

    it('hides a type with null (and a single tool by name)', () => {
      const { container } = renderParts(parts, {
        components: { reasoning: null, toolInvocation: { byName: { search: null } } },
      });
      expect(partsOfType(container, 'reasoning')).toHaveLength(0);
      const tools = partsOfType(container, 'tool-invocation');
      expect(tools).toHaveLength(1);
      expect(tools[0]).toHaveAttribute('data-tool-name', 'other');
      expect(tools[0]).toHaveTextContent('Calling other…');
    });

    it('hides every tool with toolInvocation: null, and sources with source: null', () => {
      const { container } = renderParts(
        [searchResult('x', [{ path: '/a', title: 'A' }]), { type: 'text', text: 'Hi' }],
        { components: { toolInvocation: null, source: null } },
      );
      expect(partsOfType(container, 'tool-invocation')).toHaveLength(0);
      expect(partsOfType(container, 'source')).toHaveLength(0);
      expect(partsOfType(container, 'text')).toHaveLength(1);
    });

    it('takes a custom text renderer and a custom sources renderer', () => {
      renderParts([searchResult('x', [{ path: '/a', title: 'A' }]), { type: 'text', text: 'Hi **there**' }], {
        components: {
          text: ({ part, isStreaming }) => <q data-testid="my-text">{`${part.text}|${isStreaming}`}</q>,
          source: ({ sources }) => <p data-testid="my-sources">{sources.map((s) => s.href).join(',')}</p>,
        },
      });
      expect(screen.getByTestId('my-text')).toHaveTextContent('Hi **there**|false');
      expect(screen.getByTestId('my-sources')).toHaveTextContent('https://docs.acme.dev/a');
    });
  });

  it('renders nothing for an unknown part type and warns once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const unknown = { type: 'hologram', data: 1 } as unknown as UIPart;
    const { container, rerender } = renderParts([unknown, { type: 'text', text: 'Still here' }]);
    expect(container.querySelectorAll('[data-docs-assistant="part"]')).toHaveLength(1);
    expect(screen.getByText('Still here')).toBeInTheDocument();
    rerender(
      <MessageParts
        message={assistantMessage([unknown, { type: 'text', text: 'Still here, again' }], 'm2')}
        isStreaming={false}
        resolveHref={resolveHref}
      />,
    );
    const ours = warn.mock.calls.filter((call) => String(call[0]).includes('hologram'));
    expect(ours).toHaveLength(1);
    expect(String(ours[0]![0])).toMatch(
      /\[docs-assistant\] a message part of type "hologram" is not shown: no renderer/,
    );
    warn.mockRestore();
  });
});
