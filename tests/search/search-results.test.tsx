// @vitest-environment jsdom
/**
 * The search view's safety on a hostile answer: a result whose link the panel's policy refuses
 * (`javascript:`) is not offered, relative links resolve against the docs site, and a result's
 * text stays text (no element is made from it); the query's words are marked with `<mark>` only.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { httpError } from '../../packages/docs-assistant/src/chat/errors';
import { defaultLabels } from '../../packages/docs-assistant/src/labels/defaults';
import { createHrefResolver } from '../../packages/docs-assistant/src/parts/href';
import type { SearchKit } from '../../packages/docs-assistant/src/search/core';
import SearchResults from '../../packages/docs-assistant/src/search/search-results';

const kit: SearchKit = {
  available: () => true,
  checkConfig: () => null,
  httpError,
  networkMessage: defaultLabels.errorNetwork,
  configMessage: defaultLabels.errorConfig,
};

const hostile = [
  { content: 'Click me', path: '/evil', metadata: { title: 'Evil', url: 'javascript:alert(1)' } },
  {
    content: 'Dark <img src=x onerror="window.__pwned=1"> mode <b>bold</b>',
    path: '/guides/theming',
    metadata: {
      title: 'Theming › Dark <i>mode</i>',
      pageTitle: 'Theming',
      heading: 'Dark <i>mode</i>',
      anchor: 'dark-mode',
    },
  },
];

it('drops refused links, resolves relative ones, and renders result text as text', async () => {
  const fetch = (async () =>
    new Response(JSON.stringify(hostile), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })) as typeof globalThis.fetch;
  const inputRef = createRef<HTMLTextAreaElement>();
  const { container } = render(
    <>
      <textarea ref={inputRef} aria-label="Your question" />
      <SearchResults
        query="dark mode"
        options={{ domain: 'acme', apiKey: 'svc_dsc_x', baseUrl: 'https://api.test', fetch, debounceMs: 0 }}
        inputRef={inputRef}
        assistant
        onAsk={() => {}}
        resolveHref={createHrefResolver('https://docs.test')}
        labels={defaultLabels}
        kit={kit}
        hiddenStyle={{}}
      />
    </>,
  );
  await waitFor(() =>
    expect(container.querySelectorAll('[data-docs-assistant="search-result"]')).toHaveLength(1),
  );
  const result = container.querySelector<HTMLAnchorElement>('[data-docs-assistant="search-result"]')!;
  expect(result.getAttribute('href')).toBe('https://docs.test/guides/theming#dark-mode');
  expect(container.querySelector('img, b, i')).toBeNull();
  expect(result.textContent).toContain('Dark <i>mode</i>');
  expect(result.textContent).toContain('<img src=x onerror="window.__pwned=1">');
  expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
    'Dark',
    'mode',
    'Dark',
    'mode',
  ]);
  expect(screen.queryByText('Click me')).toBeNull();
  // The box points at the list it drives.
  expect(inputRef.current!.getAttribute('aria-controls')).toBe(
    container.querySelector('[role="listbox"]')!.id,
  );
});
