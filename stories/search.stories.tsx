/// <reference types="vite/client" />
/**
 * Docs search in the panel (`defaultView="search"`), against the reference service running in the
 * browser (`createInMemoryAssistant`) over this repository's own `docs/`: instant results grouped
 * by page above an "Ask AI" row, a search that finds nothing, and a search the service refuses.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DocsAssistant } from '../packages/docs-assistant/src/index';
import { createInMemoryAssistant } from '../packages/docs-assistant-server/src/in-memory';
import { hooks, STREAM_TIMEOUT_MS } from './support/play';
import { CONNECTION, storyStorage } from './support/story-assistant';

const DOCS = import.meta.glob<string>('../docs/*.md', { query: '?raw', import: 'default', eager: true });
const FILES = Object.fromEntries(
  Object.entries(DOCS).map(([path, text]) => [path.replace('../docs/', ''), text]),
);

interface SearchStoryArgs {
  /** What the search endpoint answers: the service's results, or an error status. */
  searchStatus: 'service' | 503 | 429;
}

function SearchingAssistant({ searchStatus }: SearchStoryArgs) {
  const [service] = useState(() =>
    createInMemoryAssistant({
      files: FILES,
      domain: CONNECTION.domain,
      assistantKey: CONNECTION.apiKey,
      siteUrl: CONNECTION.docsBaseUrl,
    }),
  );
  const [storage] = useState(() => storyStorage());
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (searchStatus !== 'service' && url.includes('/discovery/v1/search/')) {
      const body = { error: 'The search index is being rebuilt; try again later.', code: 'internal' };
      return Promise.resolve(
        new Response(JSON.stringify(body), {
          status: searchStatus,
          headers: {
            'Content-Type': 'application/json',
            ...(searchStatus === 429 ? { 'Retry-After': '30' } : {}),
          },
        }),
      );
    }
    return service.fetch(new Request(input, init));
  };
  return (
    <div style={{ maxWidth: 440 }}>
      <DocsAssistant
        {...CONNECTION}
        variant="inline"
        defaultView="search"
        collectors={false}
        fetch={fetch}
        storage={storage}
      />
    </div>
  );
}

const meta = {
  title: 'DocsAssistant/Search',
  args: { searchStatus: 'service' },
  argTypes: { searchStatus: { control: 'select', options: ['service', 503, 429] } },
  render: (args: SearchStoryArgs) => <SearchingAssistant {...args} />,
} satisfies Meta<SearchStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

async function type(canvasElement: HTMLElement, text: string) {
  const input = await within(canvasElement).findByRole(
    'textbox',
    { name: 'Your question' },
    { timeout: 5000 },
  );
  await userEvent.type(input, text);
}

/** Results for "dark mode", grouped by page, the words marked, the first chosen with ↓. */
export const Results: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'dark mode');
    await waitFor(() => expect(hooks(canvasElement, 'search-result').length).toBeGreaterThan(0), {
      timeout: STREAM_TIMEOUT_MS,
    });
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() =>
      expect(hooks(canvasElement, 'search-result')[0]).toHaveAttribute('aria-selected', 'true'),
    );
    await expect(canvasElement.querySelector('[data-docs-assistant="search"] mark')).not.toBeNull();
    await expect(canvasElement.querySelector('[data-action="ask-ai"]')).toHaveTextContent(
      'Ask AI: “dark mode”',
    );
  },
};

/** Nothing in the docs matches: the status says so, and the Ask AI row stays. */
export const NoResults: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'xylophone quaternion');
    await waitFor(
      () =>
        expect(canvasElement.querySelector('[data-docs-assistant="search-status"]')).toHaveTextContent(
          'No results for “xylophone quaternion”',
        ),
      { timeout: STREAM_TIMEOUT_MS },
    );
    await expect(hooks(canvasElement, 'search-result')).toHaveLength(0);
  },
};

/** The service answers 503 to the search: an alert says so; asking still works. */
export const SearchError: Story = {
  args: { searchStatus: 503 },
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'dark mode');
    await waitFor(
      () =>
        expect(
          canvasElement.querySelector('[data-docs-assistant="search"] [data-error-kind="network"]'),
        ).toHaveTextContent(/docs search failed/),
      { timeout: STREAM_TIMEOUT_MS },
    );
    await expect(canvasElement.querySelector('[data-action="ask-ai"]')).toHaveTextContent(
      'Ask AI: “dark mode”',
    );
  },
};
