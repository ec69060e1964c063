// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import { DocsAssistant } from '../../packages/docs-assistant/src/index';
import { LabelsProvider } from '../../packages/docs-assistant/src/labels';
import { defaultLabels } from '../../packages/docs-assistant/src/labels/defaults';
import { withLabels } from '../../packages/docs-assistant/src/labels/merge';
import {
  createHrefResolver,
  createImagePolicy,
  Markdown,
  MessageParts,
  parseAllowedImageOrigins,
} from '../../packages/docs-assistant/src/parts/index';
import { answer, baseProps, freshDomain, recordingFetch } from '../ui/helpers';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const resolveHref = createHrefResolver('https://docs.acme.dev/docs');

const images = (container: HTMLElement) =>
  [...container.querySelectorAll('img')].map((img) => img.getAttribute('src'));
const externalImages = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-external-image]')].map((el) => [
    el.tagName,
    el.getAttribute('href'),
    el.textContent,
  ]);

describe('allowedImageOrigins', () => {
  it('takes origins and data:, in any spelling the URL parser reads as an origin', () => {
    expect(
      parseAllowedImageOrigins(['https://CDN.example.com:443/', 'http://localhost:3000', 'data:']),
    ).toEqual(['https://cdn.example.com', 'http://localhost:3000', 'data:']);
  });

  it.each([
    ['https://cdn.example.com/images'],
    ['cdn.example.com'],
    ['javascript:alert(1)'],
    ['https://cdn.example.com/?x=1'],
    ['*'],
  ])('refuses %s, saying how to write an origin', (entry) => {
    expect(() => parseAllowedImageOrigins([entry])).toThrow(
      new TypeError(
        `allowedImageOrigins: ${JSON.stringify(entry)} is not an origin. List origins as scheme, host and port only, e.g. "https://cdn.example.com" or "http://localhost:3000" (no path), or "data:" for data: images.`,
      ),
    );
  });

  it('by default allows the docs site (relative sources too) and data: raster images, nothing else', () => {
    const allowed = createImagePolicy(undefined, resolveHref);
    expect(allowed('https://docs.acme.dev/img/logo.png')).toBe(true);
    expect(allowed('/img/logo.png')).toBe(true);
    expect(allowed(`data:image/png;base64,${PNG}`)).toBe(true);
    expect(allowed('data:image/svg+xml;base64,PHN2Zz4=')).toBe(false);
    expect(allowed('https://docs.acme.dev.attacker.example/x.png')).toBe(false);
    expect(allowed('http://docs.acme.dev/x.png')).toBe(false);
    expect(allowed('//attacker.example/x.png')).toBe(false);
    expect(allowed('http://127.0.0.1:8080/x.png')).toBe(false);
    const none = createImagePolicy([], resolveHref);
    expect(none('https://docs.acme.dev/img/logo.png')).toBe(false);
    expect(none(`data:image/png;base64,${PNG}`)).toBe(false);
  });
});

describe('images in Markdown', () => {
  const text = [
    `Own ![logo](/img/logo.png) and data ![dot](data:image/png;base64,${PNG}).`,
    '',
    'Tracker ![chart](https://attacker.example/c.png?q=secret "Chart") and svg ![svg](data:image/svg+xml;base64,PHN2Zz4=).',
    '',
    'Linked [![badge](https://attacker.example/b.png)](https://example.com/) and ![](https://attacker.example/no-alt.png)',
    '',
    '<img src="https://attacker.example/raw.png">',
  ].join('\n');

  it('loads the docs site’s and data: images, and shows the others as links marked as external images', () => {
    const { container } = render(<Markdown text={text} resolveHref={resolveHref} />);
    expect(images(container)).toEqual([
      'https://docs.acme.dev/docs/img/logo.png',
      `data:image/png;base64,${PNG}`,
    ]);
    expect(externalImages(container)).toEqual([
      ['A', 'https://attacker.example/c.png?q=secret', 'chart (external image)'],
      // Inside a link: text, as a link cannot hold another.
      ['SPAN', null, 'badge (external image)'],
      ['A', 'https://attacker.example/no-alt.png', 'External image'],
    ]);
    const chart = screen.getByRole('link', { name: 'chart (external image)' });
    expect(chart).toHaveAttribute('target', '_blank');
    expect(chart).toHaveAttribute('rel', 'noopener noreferrer');
    expect(chart).toHaveAttribute('title', 'Chart');
    expect(screen.getByRole('link', { name: 'badge (external image)' })).toHaveAttribute(
      'href',
      'https://example.com/',
    );
    // An svg data: URL is no image and no link: only its words stay; raw HTML stays text.
    expect(container).toHaveTextContent('svg svg.');
    expect(container).toHaveTextContent('<img src="https://attacker.example/raw.png">');
  });

  it('loads from an allowed origin, and from none with an empty list; labels name the links', () => {
    const { container, unmount } = render(
      <Markdown text={text} resolveHref={resolveHref} allowedImageOrigins={['https://attacker.example']} />,
    );
    expect(images(container)).toEqual([
      'https://attacker.example/c.png?q=secret',
      'https://attacker.example/b.png',
      'https://attacker.example/no-alt.png',
    ]);
    unmount();
    const empty = render(
      <LabelsProvider
        labels={withLabels(defaultLabels, { externalImage: (alt) => `Image externe : ${alt}` })}
      >
        <Markdown text={text} resolveHref={resolveHref} allowedImageOrigins={[]} />
      </LabelsProvider>,
    );
    expect(images(empty.container)).toEqual([]);
    expect(screen.getByRole('link', { name: 'Image externe : logo' })).toHaveAttribute(
      'href',
      'https://docs.acme.dev/docs/img/logo.png',
    );
  });
});

describe('images in a message', () => {
  const message = {
    id: 'm1',
    role: 'assistant',
    content: '',
    parts: [
      { type: 'reasoning', reasoning: 'See ![r](https://attacker.example/r.png)', details: [] },
      { type: 'text', text: 'See ![t](https://cdn.acme.dev/t.png)' },
      { type: 'file', mimeType: 'image/png', data: PNG },
    ],
  } as unknown as AssistantMessage;

  it('applies allowedImageOrigins to text, reasoning and file parts', () => {
    const { container, rerender } = render(<MessageParts message={message} resolveHref={resolveHref} />);
    expect(images(container)).toEqual([`data:image/png;base64,${PNG}`]);
    expect(externalImages(container).map(([, href]) => href)).toEqual([
      'https://attacker.example/r.png',
      'https://cdn.acme.dev/t.png',
    ]);
    rerender(
      <MessageParts
        message={message}
        resolveHref={resolveHref}
        allowedImageOrigins={['https://cdn.acme.dev']}
      />,
    );
    // No 'data:': the file part shows its media type instead.
    expect(images(container)).toEqual(['https://cdn.acme.dev/t.png']);
    expect(container.querySelector('[data-file]')).toHaveTextContent('image/png');
  });
});

describe('allowedImageOrigins on the widget', () => {
  beforeEach(freshDomain);

  it('shows a config error naming the entry to fix, and sends nothing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, requests } = recordingFetch(() => answer(['unused']));
    render(
      <DocsAssistant
        {...baseProps}
        fetch={fetch}
        variant="inline"
        allowedImageOrigins={['https://cdn.acme.dev/img']}
      />,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-kind', 'config');
    expect(within(alert).getByText(/allowedImageOrigins/)).toHaveTextContent(
      'allowedImageOrigins: "https://cdn.acme.dev/img" is not an origin.',
    );
    expect(screen.getByRole('button', { name: defaultLabels.send })).toBeDisabled();
    // Logged from an effect, which may run just after the alert is in the DOM.
    await waitFor(() => expect(error).toHaveBeenCalledWith(expect.stringContaining('allowedImageOrigins')));
    expect(requests).toHaveLength(0);
  });
});
